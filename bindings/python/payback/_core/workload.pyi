"""payback._core.workload: the benchmark and calibration profiles (as JSON text)."""

from collections.abc import Sequence

from ..data import CatalogRow, CudaStatus
from . import _pybind11_type

def models(directory: str = "") -> list[CatalogRow]: ...
def workload_names() -> list[str]: ...
def cuda_status() -> CudaStatus: ...
class BenchRequest(metaclass=_pybind11_type):
    """The options of `payback bench`, each named after its flag"""

    device: str
    workload: str
    batches: list[int]
    threads: int
    repeats: int
    seconds: float
    data_file: str
    precision: str
    quant: str
    context: int
    llm: str
    def __init__(self) -> None: ...

def bench(request: BenchRequest, software: Sequence[tuple[str, str]]) -> tuple[str, list[dict[str, str]]]: ...
def read_profile(path: str) -> str: ...
def predict(
    device: str,
    workload: str,
    precision: str,
    quant: str,
    phase: str,
    batch: int,
    context: int | None,
    profile: str,
    gpus: int,
) -> str: ...
def compare_devices(
    devices: Sequence[str],
    workload: str,
    precision: str,
    quant: str,
    phase: str,
    batch: int,
    context: int | None,
    profile: str,
    gpus: int,
) -> str: ...
