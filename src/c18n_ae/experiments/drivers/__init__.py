"""Experiments whose runs are orchestrated from Python (several processes, a scraper):
each driver writes its raw CSV row by row through RowWriter and ends every process it started."""
