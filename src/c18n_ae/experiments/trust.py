"""E5 trust model: a memory scraper against the integration process, as root and as an
ordinary user, within and without a compartment."""

from __future__ import annotations

from c18n_ae.common.latex import escape, gen_name, newcommand
from c18n_ae.common.lazy import pd
from c18n_ae.common.rawcsv import RawDataError, number
from c18n_ae.experiments import Experiment
from c18n_ae.experiments.outputs import Column, Inputs, Table
from c18n_ae.experiments.parameters import Param, time_limit
from c18n_ae.experiments.programs import INTEGRATION
from c18n_ae.experiments.rows import allowed, quote, sent_found, series

PUBLISHED = "morello_trust_model_2024"  # published/morello_trust_model_2024.csv, beside our table


def tidy_rows(raw, rows):
    out = []
    for line, row in rows:
        allowed(raw, line, row, "privileges", ("root", "ordinary"))
        allowed(raw, line, row, "environment", ("in_compartment", "out_of_compartment"))
        allowed(raw, line, row, "status", ("ok", "not_run"))
        trial = int(number(raw, line, "trial", row["trial"]))
        env = 1.0 if row["environment"] == "in_compartment" else 0.0
        if row["status"] == "not_run":
            status = "not_run"
            values = dict.fromkeys(
                (
                    "access_granted",
                    "data_visible",
                    "records_found",
                    "key_found",
                    "regions_read",
                    "regions_rw",
                    "read_bytes",
                ),
                float("nan"),
            )
        elif row["status"] == "ok":
            status = "ok"
            allowed(raw, line, row, "access", ("granted", "denied"))
            found = number(raw, line, "records_found", row["records_found"])
            key = number(raw, line, "key_found", row["key_found"])
            values = {
                "access_granted": float(row["access"] == "granted"),
                "data_visible": float(found > 0 or key > 0),
                "records_found": found,
                "key_found": key,
                "regions_read": number(raw, line, "regions_read", row["regions_read"]),
                "regions_rw": number(raw, line, "regions_rw", row["regions_rw"]),
                "read_bytes": number(raw, line, "bytes_read", row["bytes_read"]),
            }
        else:
            raise RawDataError(
                f"{raw}:{line}: column status: unexpected {row['status']!r} (allowed: ok, not_run)"
            )
        values["in_compartment"] = env
        values["records_sent"] = number(raw, line, "records_sent", row["records_sent"])
        for metric, value in values.items():
            unit = (
                "bytes"
                if metric == "read_bytes"
                else (
                    "count"
                    if metric in ("records_found", "regions_read", "regions_rw", "records_sent")
                    else "flag"
                )
            )
            out.append((trial, "privileges", row["privileges"], metric, value, unit, status))
    return out


def _value(tidy, target, variant, privileges, metric):
    s = tidy[
        (tidy.source == target)
        & (tidy.variant == variant)
        & (tidy.parameter_value == privileges)
        & (tidy.metric == metric)
    ]
    return (float(s.iloc[0]["value"]), s.iloc[0]["status"]) if len(s) else (float("nan"), "missing")


def rows(tidy: pd.DataFrame) -> list[dict]:
    """One entry per target, variant and privilege level, in the published table's terms."""
    out = []
    for target, variant in series(tidy):
        for privileges in ("root", "ordinary"):
            env, status = _value(tidy, target, variant, privileges, "in_compartment")
            if status == "missing":
                continue
            access, _ = _value(tidy, target, variant, privileges, "access_granted")
            visible, _ = _value(tidy, target, variant, privileges, "data_visible")
            found, _ = _value(tidy, target, variant, privileges, "records_found")
            sent, _ = _value(tidy, target, variant, privileges, "records_sent")
            key, _ = _value(tidy, target, variant, privileges, "key_found")
            out.append(
                {
                    "source": target,
                    "variant": variant,
                    "privileges": privileges,
                    "status": status,
                    "environment": "in compartment" if env == 1 else "out of compartment",
                    "access": "Granted" if access == 1 else "Denied",
                    "visible": "Yes" if visible == 1 else "No",
                    "records": f"{found:.0f}/{sent:.0f}" if status == "ok" else "--",
                    "key": ("yes" if key == 1 else "no") if status == "ok" else "--",
                }
            )
    return out


CAPTION = (
    r"E5 trust model: access of a memory scraper to the integration process, on every "
    r"target and variant that ran, and as published for a Morello board."
)


def table(data: Inputs) -> Table:
    ours = []
    for trial, r in enumerate(rows(data.tidy), start=1):
        head = [str(trial), f"{escape(r['source'])}/{escape(r['variant'])}", r["environment"]]
        head.append("Root" if r["privileges"] == "root" else "Ordinary user")
        if r["status"] != "ok":
            ours.append([*head, r"\multicolumn{4}{l}{not run: this run was not root}"])
        else:
            ours.append([*head, r["access"], r["visible"], str(r["records"]), str(r["key"])])
    published = [
        [str(p.trial), "published (Morello)", escape(p.execution_env), escape(p.user_privileges)]
        + [escape(p.access), escape(p.sensitive_data_visible), "--", "--"]
        for p in data.published[PUBLISHED].itertuples(index=False)
    ]
    labels = ("Source", "Environment", "Privileges", "Access", "Data visible", "Records found")
    columns = (Column("Trial"), *(Column(x, align="l") for x in (*labels, "Key found")))
    return Table(columns, [ours, published], CAPTION)


def macros(summary: pd.DataFrame, references: dict) -> str:
    # The table is read from the tidy data; the prose quotes counts from the summary.
    out, ran = [], summary.dropna(subset=["mean"])  # a trial not run quotes no count
    counts = ("records found", "records sent", "regions read", "regions rw")
    for privileges in ("root", "ordinary"):
        p = privileges.title()
        access = summary[
            (summary.parameter_value == privileges) & (summary.metric == "access_granted")
        ]
        for r in access.itertuples():
            text = {1: "granted", 0: "denied"}.get(r.mean, "not run (this run was not root)")
            out.append(newcommand(gen_name("Trust", f"access {p}", r.source, r.variant), text))
        items = [(f"{q} {p}", q.replace(" ", "_")) for q in counts]
        out.append(quote(ran, "Trust", items, privileges, form=lambda x: f"{x:.0f}"))
        key = [(f"key found {p}", "key_found")]
        out.append(
            quote(ran, "Trust", key, privileges, form=lambda x: "was" if x == 1 else "was not")
        )
    return "".join(out)


# what was sent beside what a reader found, in the root and the ordinary-user trial
TITLE = "E5 trust model: plaintext records a memory scraper found"
figure = sent_found(("root", "ordinary"), ("records_sent", "records_found"), "records", TITLE)


EXPERIMENT = Experiment(
    reads_tidy=True,  # its table or figure reads single trials
    name="trust",
    measures=("a memory scraper against an OpenSSL workload, as root and as an ordinary user"),
    part="compartments",
    number=5,
    params=(
        Param(
            "records",
            100,
            20,
            "encrypted purchase records the feeder sends",
            minimum=1,
            maximum=4096,
        ),
        Param("threshold", 300, help="amount above which a taxi is booked", minimum=0),
        Param(
            "user",
            "c18n-scraper",
            help="the dedicated unprivileged account of the ordinary-user trial",
        ),
        Param("max_seconds", 60, 20, "time budget of one scrape", exclusive_minimum=0),
        time_limit(600, 120),
    ),
    title="E5 trust model",
    programs=(INTEGRATION,),
    driver="c18n_ae.experiments.drivers.trust",
    probe_args=("--idle",),  # the workload's program and launcher; --serve needs its feeder
    trials=lambda p: 2,
    published=(PUBLISHED,),
)
