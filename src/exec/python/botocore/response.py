"""botocore.response.StreamingBody over a lake file (a real buffered reader, so io.TextIOWrapper works)."""
import io


class StreamingBody(io.BufferedReader):
    def __init__(self, raw, content_length):
        super().__init__(raw)
        self._content_length = content_length

    def read(self, amt=None):
        return super().read(-1 if amt is None else amt)

    def iter_chunks(self, chunk_size=1024):
        while True:
            chunk = self.read(chunk_size)
            if not chunk:
                return
            yield chunk

    def iter_lines(self, chunk_size=1024, keepends=False):
        pending = b""
        for chunk in self.iter_chunks(chunk_size):
            lines = (pending + chunk).splitlines(True)
            pending = lines.pop() if lines and not lines[-1].endswith((b"\n", b"\r")) else b""
            for line in lines:
                yield line if keepends else line.rstrip(b"\r\n")
        if pending:
            yield pending
