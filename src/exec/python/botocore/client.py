"""An S3 client that reads the lake from a read-only folder instead of the network.

The sandbox has no network; lakeqa mounts the lake root at $LAKEQA_LAKE_ROOT and lists the bucket names
that map to it in $LAKEQA_LAKE_BUCKETS ("*" for any). lakeqa observes the files the run opens itself
(fanotify); only where it cannot is every object read appended to $LAKEQA_ACCESS_LOG as a JSON line, a
log the agent's code could also write, which the trace then marks as unverified.
"""
import datetime
import io
import json
import os
import shutil

from botocore.config import Config  # noqa: F401  (from botocore.client import Config)
from botocore.exceptions import ClientError, ParamValidationError
from botocore.response import StreamingBody


def _error(code, message, operation, status=404):
    return ClientError({"Error": {"Code": code, "Message": message},
                        "ResponseMetadata": {"HTTPStatusCode": status}}, operation)


class _Exceptions:
    ClientError = ClientError

    class NoSuchKey(ClientError):
        pass

    class NoSuchBucket(ClientError):
        pass


def _raise(exc_type, code, message, operation, status=404):
    err = _error(code, message, operation, status)
    raise exc_type(err.response, operation)


class S3Client:
    exceptions = _Exceptions

    def __init__(self, *args, **kwargs):
        self._root = os.environ.get("LAKEQA_LAKE_ROOT", "")
        self._buckets = [b for b in os.environ.get("LAKEQA_LAKE_BUCKETS", "").split(",") if b]
        self._log = os.environ.get("LAKEQA_ACCESS_LOG", "")
        self.meta = type("Meta", (), {"region_name": kwargs.get("region_name", "us-east-1")})()

    # -- helpers -----------------------------------------------------------------------------
    def _check_bucket(self, bucket, operation):
        if not isinstance(bucket, str) or not bucket:
            raise ParamValidationError("Parameter validation failed: Invalid bucket name %r" % (bucket,))
        if not self._root:
            _raise(_Exceptions.NoSuchBucket, "NoSuchBucket",
                   "no lake is mounted in this sandbox; use the download tool to fetch files", operation)
        if "*" not in self._buckets and bucket not in self._buckets:
            _raise(_Exceptions.NoSuchBucket, "NoSuchBucket",
                   "The specified bucket does not exist: %s" % bucket, operation)

    def _path(self, key, operation):
        if not isinstance(key, str) or not key:
            raise ParamValidationError("Parameter validation failed: Invalid Key %r" % (key,))
        parts = key.split("/")
        if key.startswith("/") or ".." in parts or "\0" in key:
            _raise(_Exceptions.NoSuchKey, "NoSuchKey", "The specified key does not exist: %s" % key, operation)
        return os.path.join(self._root, key)

    def _record(self, operation, bucket, key):
        if not self._log:
            return
        try:
            with open(self._log, "a", encoding="utf-8") as f:
                f.write(json.dumps({"op": operation, "bucket": bucket, "key": key}) + "\n")
        except OSError:
            pass

    def _stat(self, path, key, operation):
        try:
            st = os.stat(path)
        except OSError:
            st = None
        if st is None or not os.path.isfile(path):
            _raise(_Exceptions.NoSuchKey, "NoSuchKey", "The specified key does not exist: %s" % key, operation)
        return st

    @staticmethod
    def _meta(st):
        return {
            "ContentLength": st.st_size,
            "LastModified": datetime.datetime.fromtimestamp(st.st_mtime, tz=datetime.timezone.utc),
            "ETag": '"%x-%x"' % (int(st.st_mtime), st.st_size),
            "ContentType": "binary/octet-stream",
            "Metadata": {},
            "ResponseMetadata": {"HTTPStatusCode": 200},
        }

    # -- S3 operations -------------------------------------------------------------------------
    def get_object(self, Bucket=None, Key=None, Range=None, **kwargs):
        self._check_bucket(Bucket, "GetObject")
        path = self._path(Key, "GetObject")
        st = self._stat(path, Key, "GetObject")
        out = self._meta(st)
        if Range:
            start, end = self._parse_range(Range, st.st_size)
            with open(path, "rb") as f:
                f.seek(start)
                data = f.read(end - start + 1)
            raw = io.BytesIO(data)
            out["ContentLength"] = len(data)
            out["ContentRange"] = "bytes %d-%d/%d" % (start, start + len(data) - 1, st.st_size)
        else:
            raw = io.FileIO(path, "rb")
        out["Body"] = StreamingBody(raw, out["ContentLength"])
        self._record("get_object", Bucket, Key)
        return out

    @staticmethod
    def _parse_range(spec, size):
        try:
            unit, _, rng = spec.partition("=")
            first, _, last = rng.partition("-")
            if unit.strip() != "bytes":
                raise ValueError
            if first == "":
                start, end = max(0, size - int(last)), size - 1
            else:
                start = int(first)
                end = min(size - 1, int(last)) if last else size - 1
        except ValueError:
            raise ParamValidationError("invalid Range %r" % (spec,))
        if start >= size or start > end:
            _raise(ClientError, "InvalidRange", "The requested range is not satisfiable", "GetObject", 416)
        return start, end

    def head_object(self, Bucket=None, Key=None, **kwargs):
        self._check_bucket(Bucket, "HeadObject")
        path = self._path(Key, "HeadObject")
        return self._meta(self._stat(path, Key, "HeadObject"))

    def download_file(self, Bucket, Key, Filename, **kwargs):
        self._check_bucket(Bucket, "GetObject")
        path = self._path(Key, "GetObject")
        self._stat(path, Key, "GetObject")
        shutil.copyfile(path, Filename)
        self._record("download_file", Bucket, Key)

    def _walk(self, prefix, delimiter):
        """Yields (key, stat) for files and (common_prefix, None) for folders, in key order."""
        base_dir = prefix.rpartition("/")[0]
        start = os.path.join(self._root, base_dir) if base_dir else self._root
        if ".." in base_dir.split("/") or not os.path.isdir(start):
            return

        def walk(dir_path, key_prefix):
            try:
                entries = sorted(os.scandir(dir_path), key=lambda e: e.name)
            except OSError:
                return
            for e in entries:
                key = key_prefix + e.name
                if e.is_dir(follow_symlinks=False):
                    sub = key + "/"
                    if not (sub.startswith(prefix) or prefix.startswith(sub)):
                        continue
                    if delimiter == "/" and sub.startswith(prefix):
                        yield sub, None
                    else:
                        yield from walk(e.path, sub)
                elif e.is_file(follow_symlinks=False) and key.startswith(prefix):
                    yield key, e.stat(follow_symlinks=False)

        yield from walk(start, base_dir + "/" if base_dir else "")

    def list_objects_v2(self, Bucket=None, Prefix="", Delimiter="", MaxKeys=1000, ContinuationToken=None,
                        StartAfter="", **kwargs):
        self._check_bucket(Bucket, "ListObjectsV2")
        after = ContinuationToken or StartAfter or ""
        contents, prefixes, truncated, last = [], [], False, ""
        for key, st in self._walk(Prefix or "", Delimiter or ""):
            if key <= after:
                continue
            if len(contents) + len(prefixes) >= MaxKeys:
                truncated = True
                break
            if st is None:
                prefixes.append({"Prefix": key})
            else:
                contents.append({"Key": key, "Size": st.st_size, "ETag": '"%x-%x"' % (int(st.st_mtime), st.st_size),
                                 "LastModified": datetime.datetime.fromtimestamp(st.st_mtime, tz=datetime.timezone.utc),
                                 "StorageClass": "STANDARD"})
            last = key
        out = {"Name": Bucket, "Prefix": Prefix or "", "MaxKeys": MaxKeys, "IsTruncated": truncated,
               "KeyCount": len(contents) + len(prefixes), "ResponseMetadata": {"HTTPStatusCode": 200}}
        if Delimiter:
            out["Delimiter"] = Delimiter
        if contents:
            out["Contents"] = contents
        if prefixes:
            out["CommonPrefixes"] = prefixes
        if truncated:
            out["NextContinuationToken"] = last
        return out

    def get_paginator(self, operation_name):
        if operation_name != "list_objects_v2":
            raise NotImplementedError("lakeqa sandbox: only the list_objects_v2 paginator is available")
        client = self

        class _Paginator:
            def paginate(self, **kwargs):
                token = None
                while True:
                    args = dict(kwargs)
                    args.pop("PaginationConfig", None)
                    if token:
                        args["ContinuationToken"] = token
                    page = client.list_objects_v2(**args)
                    yield page
                    if not page.get("IsTruncated"):
                        return
                    token = page["NextContinuationToken"]

        return _Paginator()

    def select_object_content(self, **kwargs):
        raise NotImplementedError("lakeqa sandbox: S3 Select is not available; read the object with get_object "
                                  "and filter it with pandas")

    def close(self):
        pass
