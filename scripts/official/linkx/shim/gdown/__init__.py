"""Stand-in for gdown (imported by dataset.py/data_utils.py; downloads only for
datasets other than Planetoid). There is no network here: any call raises."""


def download(*args, **kwargs):
    raise RuntimeError("shim gdown: no downloads offline")
