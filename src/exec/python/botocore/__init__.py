"""lakeqa's stand-in for botocore inside the code sandbox (see boto3/__init__.py)."""

__version__ = "0.0+lakeqa"


class _Unsigned:
    def __repr__(self):
        return "UNSIGNED"

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


UNSIGNED = _Unsigned()
