"""The exception payback raises for bad input."""

from __future__ import annotations


class InputError(ValueError):
    """Bad input: a scenario file, an override, a key or an argument payback cannot use.

    Its text is the one line the command-line program prints
    (``file:line: key.path: what was expected, got what was found``); the parts are attributes.

    Attributes:
        file: the file (or the argument, such as ``"--set"`` or ``"--vary"``) the error is about.
        line: the line in that file, 0 when there is none (an override, a missing file).
        key: the key path, such as ``"rig.parts[2].price"``; empty when the error is about no key.
        message: what was expected and what was found, without the location.
    """

    def __init__(self, text: str, file: str = "", line: int = 0, key: str = "", message: str = "") -> None:
        super().__init__(text)
        self.file = file
        self.line = line
        self.key = key
        self.message = message or text

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str, int, str, str]]:
        # keeps the attributes across processes (Dask workers)
        return (type(self), (str(self), self.file, self.line, self.key, self.message))
