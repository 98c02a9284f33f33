"""lakeqa's stand-in for boto3 inside the code sandbox, which has no network.

boto3.client("s3", ...) returns a client that reads the lake from a read-only folder mounted by lakeqa,
so the LakeQA tasks' code (boto3.client("s3", config=Config(signature_version=UNSIGNED)).get_object(
Bucket=bucket, Key=source)) runs unchanged. Only S3 reads are provided.
"""
from botocore.client import S3Client

__version__ = "0.0+lakeqa"


def client(service_name, *args, **kwargs):
    if service_name != "s3":
        raise NotImplementedError("lakeqa sandbox: only the s3 client is available, not %r" % (service_name,))
    return S3Client(*args, **kwargs)


def resource(service_name, *args, **kwargs):
    raise NotImplementedError("lakeqa sandbox: boto3.resource is not available; use boto3.client('s3')")


class Session:
    def __init__(self, *args, **kwargs):
        self.region_name = kwargs.get("region_name", "us-east-1")

    def client(self, service_name, *args, **kwargs):
        return client(service_name, *args, **kwargs)

    def resource(self, service_name, *args, **kwargs):
        return resource(service_name, *args, **kwargs)


session = type("session", (), {"Session": Session})
