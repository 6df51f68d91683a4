"""An upload handler that refuses files above ``settings.UPLOAD_MAX_BYTES`` while they arrive.

Django writes a large upload to a temporary file before any view can look at its
size; this handler, first in ``FILE_UPLOAD_HANDLERS``, drops a file as soon as it
grows past the limit (or at once when the request's Content-Length already says
so), so an oversized upload costs neither memory nor disk.  The view then sees no
file and its form says so.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, SkipFile


class SizeLimitedUploadHandler(FileUploadHandler):
    # Room for the multipart boundaries and the other form fields around the file.
    OVERHEAD = 64 * 1024

    def __init__(self, request: Any = None) -> None:
        super().__init__(request)
        self.limit = int(settings.UPLOAD_MAX_BYTES)
        self.received = 0
        self.request_too_large = False

    def handle_raw_input(
        self,
        input_data: Any,
        META: dict[str, Any],
        content_length: int,
        boundary: bytes | str,  # bytes from Django's parser (its stubs say str)
        encoding: str | None = None,
    ) -> None:
        self.request_too_large = content_length > self.limit + self.OVERHEAD

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0
        if self.request_too_large:
            raise SkipFile()

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > self.limit:
            raise SkipFile()
        return raw_data  # the next handler (memory, then temporary file) stores it

    def file_complete(self, file_size: int) -> None:
        return None
