"""payback._core.market: the pricing catalogs, each row with where it comes from."""

from ..data import CatalogRow

def catalog(what: str, directory: str = "") -> list[CatalogRow]: ...
