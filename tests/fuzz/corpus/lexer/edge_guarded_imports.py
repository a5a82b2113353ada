if TYPE_CHECKING:
    import t
try:
    import u
except ImportError:
    u = None
