"""A tiny stand-in for the Hugging Face Hub on 127.0.0.1, answering the way the Hub does.

huggingface_hub 2.4 (file_download.get_hf_file_metadata, utils/_http.hf_raise_for_status)
expects, for /{repo}/resolve/{revision}/{file}:
  HEAD  200 with X-Repo-Commit, ETag (or X-Linked-Etag) and Content-Length
  GET   the bytes (206 + Content-Range when a Range header asks for part of them,
        as parse_safetensors_file_metadata does with "bytes=0-100000")
  errors with X-Error-Code: GatedRepo (401 without a token, 403 with one lacking
        access), RepoNotFound (401, as the Hub answers unauthenticated requests for
        missing or private repos), RevisionNotFound and EntryNotFound (404)
Every request is logged so tests can check what was asked and with which token.
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

RESOLVE = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/resolve/(?P<rev>[^/]+)/(?P<file>.+)$")


@dataclass
class FakeRepo:
    files: dict[str, bytes]
    gated_token: str | None = None  # a gated repo opens only to this token
    sha: str = "0123456789abcdef0123456789abcdef01234567"


@dataclass
class FakeHub:
    repos: dict[str, FakeRepo]
    log: list[dict] = field(default_factory=list)

    def start(self) -> str:
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep pytest output clean
                pass

            def do_HEAD(self):
                self.answer(body=False)

            def do_GET(self):
                self.answer(body=True)

            def send(self, status, headers, payload=b"", body=True):
                self.send_response(status)
                for k, v in headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if body and payload:
                    self.wfile.write(payload)

            def answer(self, body):
                auth = self.headers.get("Authorization")
                hub.log.append(
                    {
                        "method": self.command,
                        "path": self.path,
                        "auth": auth,
                        "range": self.headers.get("Range"),
                    }
                )
                m = RESOLVE.match(self.path.split("?")[0])
                repo = hub.repos.get(m["repo"]) if m else None
                if repo is None:
                    msg = b'{"error":"Repository not found"}'
                    return self.send(
                        401,
                        {
                            "X-Error-Code": "RepoNotFound",
                            "X-Error-Message": "Repository not found",
                            "Content-Type": "application/json",
                        },
                        msg,
                        body,
                    )
                if repo.gated_token and auth != f"Bearer {repo.gated_token}":
                    status = 401 if auth is None else 403
                    text = (
                        f"Access to model {m['repo']} is restricted and you are not in the authorized list."
                    )
                    return self.send(
                        status, {"X-Error-Code": "GatedRepo", "X-Error-Message": text}, text.encode(), body
                    )
                if m["rev"] not in ("main", repo.sha):
                    return self.send(
                        404,
                        {"X-Error-Code": "RevisionNotFound", "X-Error-Message": "Invalid rev id"},
                        b"Invalid rev id",
                        body,
                    )
                data = repo.files.get(m["file"])
                if data is None:
                    return self.send(
                        404,
                        {
                            "X-Error-Code": "EntryNotFound",
                            "X-Error-Message": "Entry not found",
                            "X-Repo-Commit": repo.sha,
                        },
                        b"Entry not found",
                        body,
                    )
                headers = {
                    "X-Repo-Commit": repo.sha,
                    "ETag": '"' + hashlib.sha256(data).hexdigest() + '"',
                    "Accept-Ranges": "bytes",
                }
                rng = self.headers.get("Range")
                if rng and body:
                    a, b = (int(x) for x in rng.split("=")[1].split("-"))
                    part = data[a : b + 1]
                    headers["Content-Range"] = f"bytes {a}-{a + len(part) - 1}/{len(data)}"
                    return self.send(206, headers, part, body)
                if not body:  # HEAD: the size of the file, no payload
                    self.send_response(200)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    return
                return self.send(200, headers, data, body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
