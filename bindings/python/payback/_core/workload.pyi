"""payback._core.workload: the training benchmark and calibration profiles (as JSON text)."""

from collections.abc import Sequence

from ..data import CudaStatus

def workload_names() -> list[str]: ...
def cuda_status() -> CudaStatus: ...
def bench(
    devices: Sequence[str],
    workloads: Sequence[str],
    batches: Sequence[int],
    threads: int,
    repeats: int,
    seconds: float,
    data_file: str,
    software: Sequence[tuple[str, str]],
) -> str: ...
def read_profile(path: str) -> str: ...
def predict(
    device: str, workload: str, precision: str, quant: str, phase: str, batch: int, context: int | None, profile: str
) -> str: ...
