"""JupyterLab's contents manager for `make lab`: the tracked notebooks stay clean.

A live session fills notebooks with outputs (figures, progress bars, the
explorers' widgets) and JupyterLab saves them, by hand or by autosave every
two minutes. The repository's notebooks are committed without outputs, so
CleanNotebookManager saves a notebook

- without outputs and execution counts (what is kept is what you wrote);
- with the notebook metadata it has on disk (the kernel's language_info,
  which JupyterLab copies in from the running kernel, is not written back);
- not at all when, so stripped, it equals the notebook on disk: the file, and
  its modification time, stay as they are, so a second window on the same
  notebook is not told that the file changed.

Editing a cell and saving writes the edit (without outputs), as before.
kernel/lab.sh selects it (--ServerApp.contents_manager_class); nothing here
runs outside JupyterLab.
"""

import os

import nbformat
from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

# Cell metadata JupyterLab writes for its own view state; not what a reader
# edits, so it neither makes a notebook differ nor is it saved.
VIEW_STATE = ("collapsed", "scrolled", "trusted", "execution", "jupyter")


def strip(nb):
    """nb without outputs, execution counts and view state (in place)."""
    for cell in nb.cells:
        if cell.get("cell_type") == "code":
            cell["outputs"] = []
            cell["execution_count"] = None
        md = cell.get("metadata", {})
        for key in VIEW_STATE:
            md.pop(key, None)
    return nb


def written(nb):
    """What a reader wrote: per cell its type, source and attachments, and the
    notebook's metadata."""
    return ([(c.get("cell_type"), c.get("source"), c.get("attachments"), c.get("metadata"))
             for c in nb.cells], nb.get("metadata"))


class CleanNotebookManager(AsyncLargeFileManager):
    """AsyncLargeFileManager that saves notebooks without outputs and skips
    saves that would change nothing a reader wrote (see the module doc)."""

    async def save(self, model, path=""):
        if model.get("type") != "notebook" or model.get("content") is None:
            return await super().save(model, path)
        nb = strip(nbformat.from_dict(model["content"]))
        os_path = self._get_os_path(path.strip("/"))
        if os.path.isfile(os_path):
            try:
                disk = strip(nbformat.read(os_path, as_version=4))
            except Exception:  # unreadable on disk: save what the reader has
                disk = None
            if disk is not None:
                nb.metadata = disk.metadata
                if written(nb) == written(disk):
                    self.log.info("lwgcn: %s unchanged apart from outputs; not saved", path)
                    return await self.get(path, content=False)
        return await super().save(dict(model, content=nb), path)
