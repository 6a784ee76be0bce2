//! PySolFC game numbers: its generators and its dealing, so `--pysol N` gives
//! exactly the deal PySolFC shows as game N.
