"""botocore.config.Config: accepted and kept, never needed (the lake is local and unsigned)."""


class Config:
    def __init__(self, *args, **kwargs):
        self.signature_version = kwargs.get("signature_version")
        self.region_name = kwargs.get("region_name")
        self._options = dict(kwargs)

    def merge(self, other):
        merged = dict(self._options)
        merged.update(getattr(other, "_options", {}))
        return Config(**merged)
