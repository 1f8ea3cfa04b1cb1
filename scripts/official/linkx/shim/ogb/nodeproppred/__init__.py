"""Stand-in for ogb.nodeproppred (imported by dataset.py; used only for OGB
datasets). Constructing it raises."""


class NodePropPredDataset(object):
    def __init__(self, *args, **kwargs):
        raise RuntimeError("shim ogb: OGB datasets are not available here")
