"""Stand-in for torch_sparse (no wheel for torch 2.15), just enough for LINKX.

The official LINKX forward (models.py, LINKX.forward) makes exactly one call:

    SparseTensor(row=row, col=col, sparse_sizes=(m, n)).to_torch_sparse_coo_tensor()

i.e. the 0/1 adjacency as a torch COO tensor (value None -> ones), which
nn.Linear then multiplies. This class reproduces that call: it sorts the
entries row-major as torch_sparse's SparseStorage does, keeps duplicates (as
torch_sparse does; main.py's to_undirected has already coalesced the edges)
and returns torch.sparse_coo_tensor(index, ones, sizes). Everything else
torch_sparse offers is absent and raises, so that no other code path of the
official repository runs on a guess.
"""
import torch


class SparseTensor(object):
    def __init__(self, row=None, rowptr=None, col=None, value=None,
                 sparse_sizes=None, is_sorted=False, trust_data=False):
        if row is None or col is None or rowptr is not None:
            raise NotImplementedError("shim SparseTensor: only row/col construction")
        row = torch.as_tensor(row, dtype=torch.long)
        col = torch.as_tensor(col, dtype=torch.long)
        if sparse_sizes is None or sparse_sizes[0] is None or sparse_sizes[1] is None:
            m = int(row.max()) + 1 if row.numel() else 0
            n = int(col.max()) + 1 if col.numel() else 0
            sparse_sizes = (m if sparse_sizes is None or sparse_sizes[0] is None else sparse_sizes[0],
                            n if sparse_sizes is None or sparse_sizes[1] is None else sparse_sizes[1])
        self._sizes = (int(sparse_sizes[0]), int(sparse_sizes[1]))
        if not is_sorted and row.numel():
            perm = torch.argsort(row * self._sizes[1] + col, stable=True)
            row, col = row[perm], col[perm]
            if value is not None:
                value = value[perm]
        self._row, self._col, self._value = row, col, value

    def sizes(self):
        return list(self._sizes)

    def nnz(self):
        return self._row.numel()

    def coo(self):
        return self._row, self._col, self._value

    def to_torch_sparse_coo_tensor(self, dtype=None):
        index = torch.stack([self._row, self._col], dim=0)
        value = self._value
        if value is None:
            value = torch.ones(self.nnz(), dtype=dtype, device=self._row.device)
        return torch.sparse_coo_tensor(index, value, self.sizes())

    def __getattr__(self, name):
        raise NotImplementedError(f"shim SparseTensor has no {name!r} (only what LINKX uses)")


def matmul(*args, **kwargs):
    raise NotImplementedError("shim torch_sparse.matmul: not used by LINKX")
