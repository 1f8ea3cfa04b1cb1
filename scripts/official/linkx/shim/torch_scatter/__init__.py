"""Stand-in for torch_scatter: imported by main.py (scatter, used only for
ogbn-proteins) and homophily.py (scatter_add, not called on the LINKX path).
Both are mapped to torch_geometric.utils.scatter."""
from torch_geometric.utils import scatter as _scatter


def scatter(src, index, dim=-1, out=None, dim_size=None, reduce="sum"):
    if out is not None:
        raise NotImplementedError("shim torch_scatter.scatter: out= not supported")
    return _scatter(src, index, dim=dim, dim_size=dim_size, reduce=reduce)


def scatter_add(src, index, dim=-1, out=None, dim_size=None):
    return scatter(src, index, dim=dim, out=out, dim_size=dim_size, reduce="sum")
