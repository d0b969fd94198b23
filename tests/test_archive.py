"""The deposit (`snakemake archive`, c18n_ae.report.archive) carries tracked files and generated
results only: a symlink in a data set that leads out of the tree puts neither the outside file's
content nor a link that would recreate it into the tarball, and SHA256SUMS lists every member."""

import subprocess
import sys
import tarfile

import pytest

SECRET = b"not for the archive: an outside file's content\n"


def git(project, *args):
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(project), *args],
        check=True,
        capture_output=True,
    )


def archive(project, tmp_path):
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "c18n_ae.report.archive",
            "--out",
            "archive/c18n-ae.tar.gz",
            "--sums",
            "archive/SHA256SUMS",
        ],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    return done, project / "archive" / "c18n-ae.tar.gz"


@pytest.mark.parametrize("tracked", [True, False], ids=["git checkout", "unpacked tree"])
def test_a_symlink_out_of_the_tree_never_reaches_the_tarball(project_copy, tmp_path, tracked):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_bytes(SECRET)
    data = project_copy / "datasets" / "morello-2024"
    (data / "planted.csv").symlink_to(outside / "secret.txt")
    (data / "planted-dir").symlink_to(outside, target_is_directory=True)
    # a link to a file inside the tree, by absolute path: packed as that file's content
    (data / "notice-link").symlink_to((data / "NOTICE").resolve())
    (project_copy / "results" / "tidy").mkdir(parents=True)
    (project_copy / "results" / "tidy" / "memory.csv").symlink_to(outside / "secret.txt")
    # what must never be packed, even when tracked
    for private in (".ssh/id_ed25519", ".venv/pyvenv.cfg", ".env/token"):
        (project_copy / private).parent.mkdir(exist_ok=True)
        (project_copy / private).write_bytes(SECRET)
    if tracked:
        git(project_copy, "init", "-q")
        git(project_copy, "add", "-A", "-f")
        git(project_copy, "commit", "-qm", "a tree with planted links")
    done, tarball = archive(project_copy, tmp_path)

    with tarfile.open(tarball) as tar:
        members = tar.getmembers()
        names = {m.name for m in members}
        assert all(m.isfile() for m in members), [m.name for m in members if not m.isfile()]
        for m in members:
            assert SECRET not in tar.extractfile(m).read(), m.name
        listing = tar.extractfile("c18n-ae/SHA256SUMS").read().decode()
    listed = {"c18n-ae/" + line.split("  ", 1)[1] for line in listing.splitlines()}
    # the manifest lists every member, and the copy beside the tarball adds the tarball's sum
    assert listed == names - {"c18n-ae/SHA256SUMS"}
    beside = (project_copy / "archive" / "SHA256SUMS").read_text()
    assert beside.startswith(listing) and beside.endswith("  c18n-ae.tar.gz\n")
    for left_out in ("planted.csv", "results/tidy/memory.csv"):
        assert left_out in done.stderr and "a symlink leading outside the project" in done.stderr
    assert not any(
        "planted" in n or "/.ssh/" in n or "/.venv/" in n or "/.env/" in n for n in names
    )
    notice = (data / "NOTICE").read_bytes()
    with tarfile.open(tarball) as tar:
        packed = tar.extractfile("c18n-ae/datasets/morello-2024/notice-link").read()
    assert packed == notice
    for needed in ("Snakefile", "config/config.yaml", "datasets/morello-2024/dataset.yaml"):
        assert f"c18n-ae/{needed}" in names, needed
    for metadata in ("LICENSE", "CITATION.cff", ".zenodo.json"):
        if (project_copy / metadata).exists():
            assert f"c18n-ae/{metadata}" in names, metadata


def test_a_data_set_dropped_in_without_a_commit_is_packed(project_copy, tmp_path):
    """In a git checkout, a data set a reviewer copied into datasets/ (and the config naming it)
    is an input of the run even untracked: the deposit carries it, or it could not be re-run."""
    git(project_copy, "init", "-q")
    git(project_copy, "add", "-A")
    git(project_copy, "commit", "-qm", "a clone")
    dropped = project_copy / "datasets" / "dropped-in"
    (dropped / "memory").mkdir(parents=True)
    (dropped / "memory" / "hybrid.csv").write_text("an untracked file\n")
    (project_copy / "config" / "mine.yaml").write_text("datasets: [dropped-in]\n")
    _, tarball = archive(project_copy, tmp_path)
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
    assert "c18n-ae/datasets/dropped-in/memory/hybrid.csv" in names
    assert "c18n-ae/config/mine.yaml" in names


PRIVATE_TARGETS = (".env", ".git/config", ".venv/pyvenv.cfg", "notes-untracked.txt")


@pytest.mark.parametrize("tracked", [True, False], ids=["git checkout", "unpacked tree"])
def test_a_link_inside_the_project_is_followed_only_to_a_file_the_deposit_packs(
    project_copy, tmp_path, tracked
):
    """A link to .env, .git/config, .venv/... (or, in a checkout, to any untracked file) packs
    neither the file's content nor a link: it is left out and named in the log."""
    if tracked:
        git(project_copy, "init", "-q")
    for private in PRIVATE_TARGETS:  # .git/config: in a checkout, the one git init made
        (project_copy / private).parent.mkdir(exist_ok=True)
        with open(project_copy / private, "ab") as f:
            f.write(b"# " + SECRET)
    data = project_copy / "datasets" / "morello-2024"
    links = {f"to{i}": target for i, target in enumerate(PRIVATE_TARGETS)}
    for link, target in links.items():
        (data / link).symlink_to(project_copy / target)  # absolute, inside the project
    (data / "relative-env").symlink_to("../../.env")
    (data / "notice-link").symlink_to("NOTICE")  # a tracked file: packed as its content
    if tracked:
        git(project_copy, "add", "-A")  # .env, .venv and notes-untracked.txt: not added
        git(project_copy, "rm", "-q", "--cached", ".env", "notes-untracked.txt")
        git(project_copy, "commit", "-qm", "a tree with links to private files")
    done, tarball = archive(project_copy, tmp_path)
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
        # without git, an untracked file is one the deposit packs, and so is a link to it
        packed = (
            () if tracked else ("c18n-ae/notes-untracked.txt", "c18n-ae/datasets/morello-2024/to3")
        )
        for m in tar.getmembers():
            assert m.isfile() and (m.name in packed or SECRET not in tar.extractfile(m).read())
        assert (
            tar.extractfile("c18n-ae/datasets/morello-2024/notice-link").read()
            == (data / "NOTICE").read_bytes()
        )
    expect_left_out = ["to0", "to1", "to2", "relative-env"] + (["to3"] if tracked else [])
    for link in expect_left_out:
        assert f"c18n-ae/datasets/morello-2024/{link}" not in names, link
        assert f"datasets/morello-2024/{link}'" in done.stderr, link
    assert "which the deposit does not pack, left out" in done.stderr
    assert set(packed) <= names


KEY_LIKE_FILES = (
    "id_rsa",
    "id_ed25519.pub",
    "server.pem",
    "tls.KEY",
    "client.p12",
    ".env",
    ".env.local",
    ".netrc",
)


def test_key_like_files_are_left_out_each_named(project_copy, tmp_path):
    """Even tracked, and even behind a link with an ordinary name."""
    data = project_copy / "datasets" / "morello-2024"
    for name in KEY_LIKE_FILES:
        (data / name).write_bytes(SECRET)
    (project_copy / "config" / "deploy.pem").write_bytes(SECRET)
    (data / "ordinary.txt").symlink_to("id_rsa")
    git(project_copy, "init", "-q")
    git(project_copy, "add", "-A", "-f")
    git(project_copy, "commit", "-qm", "keys committed by mistake")
    done, tarball = archive(project_copy, tmp_path)
    with tarfile.open(tarball) as tar:
        names = set(tar.getnames())
        for m in tar.getmembers():
            assert SECRET not in tar.extractfile(m).read(), m.name
    for f in [f"datasets/morello-2024/{n}" for n in (*KEY_LIKE_FILES, "ordinary.txt")] + [
        "config/deploy.pem"
    ]:
        assert f"c18n-ae/{f}" not in names, f
        assert f"'{f}': a key-like file" in done.stderr, f
    assert "c18n-ae/datasets/morello-2024/dataset.yaml" in names


@pytest.mark.parametrize(
    "name", ["two\nlines.csv", "carriage\rreturn.csv", "back\\slash.csv", "bell\x07.csv"]
)
def test_a_name_the_manifest_cannot_list_is_refused(project_copy, tmp_path, name):
    (project_copy / "datasets" / "morello-2024" / name).write_text("a data file\n")
    done = subprocess.run(
        [sys.executable, "-m", "c18n_ae.report.archive", "--out", "a.tar.gz", "--sums", "SUMS"],
        cwd=project_copy,
        capture_output=True,
        text=True,
    )
    assert done.returncode != 0
    assert done.stderr.startswith("error: SHA256SUMS cannot list these file names")
    assert repr(f"datasets/morello-2024/{name}") in done.stderr
    assert "Traceback" not in done.stderr
    assert not (project_copy / "a.tar.gz").exists() and not (project_copy / "SUMS").exists()


def test_the_readme_names_every_key_like_pattern():
    """The README's account of the deposit lists the patterns archive.KEY_LIKE leaves out."""
    from c18n_ae.report.archive import KEY_LIKE
    from conftest import ROOT

    said = (ROOT / "README.md").read_text().split("**The archive carries", 1)[1].split("\n\n")[0]
    assert [p for p in KEY_LIKE if f"`{p}`" not in said] == []
