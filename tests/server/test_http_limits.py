"""What one client may cost over HTTP (issue 12 §2, §6): body and header bounds, rate
limits per address and overall, a deadline on request heads, strict bodies, the Host
check, and the security headers on every answer, errors included."""

from __future__ import annotations

import socket
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import replace

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import DatabaseError, OperationalError
from websockets.sync.client import connect

from mummy.server.admission.declared import rate_limit, rated_routes
from mummy.server.admission.limits import Limits, Shunned, address_group, uvicorn_options
from mummy.server.app import MAX_MESSAGE, create_app
from mummy.server.deploy.supervisor import raise_open_files
from mummy.server.play.service import GameService
from tests.server.conftest import TEST_LIMITS, listening, running

GAME = {"game": "tomb", "seats": [{"name": "me"}]}


def secured(r: object) -> bool:
    headers = r.headers  # type: ignore[attr-defined]
    return "'self'" in headers.get("content-security-policy", "") and headers.get("x-content-type-options") == "nosniff"


def app_client(service: GameService, limits: Limits = TEST_LIMITS, address: str = "10.0.0.1") -> TestClient:
    return TestClient(create_app(service=service, limits=limits), client=(address, 50000))


def test_a_body_over_the_bound_is_refused_with_413_unread(service: GameService) -> None:
    client = app_client(service, Limits(max_body=1024))
    big = {"game": "tomb", "seats": [{"name": "me"}], "map": "x" * 2000}
    r = client.post("/api/games", json=big)
    assert r.status_code == 413 and r.json()["error"]["code"] == "too_large" and secured(r)

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it comes
        yield b'{"game": "tomb", "seats": [{"name": "'
        for _ in range(20):
            yield b"y" * 100
        yield b'"}]}'

    r = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.post("/api/games", json=GAME).status_code == 201  # small bodies pass whole


def test_too_many_or_too_large_headers_are_refused_with_431(service: GameService) -> None:
    client = app_client(service, Limits(max_headers=30, max_header_bytes=4096))
    many = {f"x-h{i}": "1" for i in range(40)}
    r = client.get("/api/health", headers=many)
    assert r.status_code == 431 and r.json()["error"]["code"] == "headers_too_large" and secured(r)
    r = client.get("/api/health", headers={"x-big": "z" * 5000})
    assert r.status_code == 431
    assert client.get("/api/health").status_code == 200


def test_creating_games_is_rate_limited_per_address_and_overall(service: GameService) -> None:
    limits = Limits(games_per_address="3/minute", games_overall="5/minute")
    app = create_app(service=service, limits=limits)
    flooder = TestClient(app, client=("10.0.0.1", 1))
    assert [flooder.post("/api/games", json=GAME).status_code for _ in range(3)] == [201] * 3
    r = flooder.post("/api/games", json=GAME)
    assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_requests" and secured(r)
    assert int(r.headers["retry-after"]) >= 1 and "your address" in r.json()["error"]["message"]
    assert flooder.post("/api/daily/tomb", json={"name": "me"}).status_code == 429  # the daily game too
    other = TestClient(app, client=("10.0.0.2", 1))  # someone else is still served...
    assert [other.post("/api/games", json=GAME).status_code for _ in range(2)] == [201] * 2
    r = TestClient(app, client=("10.0.0.3", 1)).post("/api/games", json=GAME)  # ...up to the server's bound
    assert r.status_code == 429 and "on this server" in r.json()["error"]["message"]
    assert flooder.get("/api/health").status_code == 200  # reading is not limited


def test_previews_are_rate_limited_per_address(service: GameService) -> None:
    """A page asks for previews as the pointer moves (once per place and version): they
    have their own allowance, and past it the answer is 429 with its words and Retry-After."""
    client = app_client(service, Limits(previews_per_address="3/minute"))
    created = client.post("/api/games", json=GAME).json()
    url = f"/api/games/{created['id']}/preview"
    headers = {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    codes = [client.get(url, params={"action": "end"}, headers=headers).status_code for _ in range(4)]
    assert codes[:3] != [429] * 3 and codes[3] == 429
    r = client.get(url, params={"action": "end"}, headers=headers)
    assert "too many previews" in r.json()["error"]["message"] and int(r.headers["retry-after"]) >= 1
    assert client.get(f"/api/games/{created['id']}", headers=headers).status_code == 200  # views are not


def test_http_actions_are_rate_limited_per_address(service: GameService) -> None:
    client = app_client(service, Limits(actions_per_address="5/minute"))
    created = client.post("/api/games", json=GAME).json()
    url, token = f"/api/games/{created['id']}/actions", created["seats"][0]["token"]
    headers = {"Authorization": f"Bearer {token}"}
    codes = [client.post(url, headers=headers, json={"client_id": f"u{i}", "version": i, "action": "undo"}).status_code
             for i in range(6)]
    assert codes[:5] != [429] * 5 and codes[5] == 429


def test_bodies_are_strict_as_on_the_websocket(client: TestClient) -> None:
    created = client.post("/api/games", json={**GAME, "seed": 99}).json()  # rolls 5 and 5
    url, headers = f"/api/games/{created['id']}/actions", {"Authorization": f"Bearer {created['seats'][0]['token']}"}
    for version in (True, "1", 0.0):
        r = client.post(url, headers=headers, json={"client_id": "a", "version": version, "action": "1:5a.r0@J1"})
        assert r.status_code == 422 and "detail" in r.json(), version
    r = client.post(url, headers=headers, json={"client_id": "a", "version": 0, "action": "1:5a.r0@J1"})
    assert r.status_code == 200


def test_a_lone_surrogate_is_a_422_with_the_headers_not_a_500(client: TestClient) -> None:
    body = b'{"game": "tomb", "seats": [{"name": "\\ud800"}]}'
    r = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422 and secured(r)
    assert "surrogate" in r.text and r.json()["detail"][0]["loc"][-1] == "name"
    created = client.post("/api/games", json=GAME).json()
    r = client.post(f"/api/games/{created['id']}/actions", content=b'{"client_id": "\\udc00x", "version": 0, '
                    b'"action": "end"}', headers={"content-type": "application/json",
                                                  "Authorization": f"Bearer {created['seats'][0]['token']}"})
    assert r.status_code == 422 and secured(r)


def test_validation_errors_repeat_little_of_the_input(client: TestClient) -> None:
    r = client.post("/api/games", json={"game": "x" * 5000, "seats": [{"name": "me"}]})
    assert r.status_code == 422 and len(r.content) < 1500


def test_an_unexpected_failure_is_a_500_with_the_headers(service: GameService, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(service, "view", broken)
    client = TestClient(create_app(service=service, limits=TEST_LIMITS), raise_server_exceptions=False)
    r = client.get("/api/games/abc")
    assert r.status_code == 500 and r.json()["error"]["code"] == "internal" and secured(r)


def test_a_damaged_database_is_reported_as_damaged_not_busy(service: GameService,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    faults = {"damaged": DatabaseError("SELECT", {}, sqlite3.DatabaseError("database disk image is malformed")),
              "busy": OperationalError("SELECT", {}, sqlite3.OperationalError("database is locked"))}
    fault = faults["damaged"]

    def failing(*_args: object) -> None:
        raise fault

    monkeypatch.setattr(service, "view", failing)
    client = TestClient(create_app(service=service, limits=TEST_LIMITS))
    r = client.get("/api/games/abc")
    assert r.status_code == 500 and r.json()["error"]["code"] == "database_damaged"
    assert "restore" in r.json()["error"]["message"] and secured(r)
    fault = faults["busy"]
    r = client.get("/api/games/abc")
    assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable"


def test_the_host_header_must_name_this_server(service: GameService) -> None:
    client = TestClient(create_app(service=service, limits=Limits(allowed_hosts=("mummy.example", "localhost"))),
                        base_url="http://mummy.example")
    assert client.get("/api/health").status_code == 200
    assert client.get("/api/health", headers={"host": "localhost:8000"}).status_code == 200
    r = client.get("/api/health", headers={"host": "evil.example"})
    assert r.status_code == 400


def test_api_pages_that_load_scripts_from_elsewhere_are_off(client: TestClient) -> None:
    assert client.get("/docs").status_code == 404 and client.get("/redoc").status_code == 404
    assert client.get("/openapi.json").json()["info"]["title"] == "mummy"


# -- at the socket: a real uvicorn with the options `mummy serve` gives it ----------------------


@pytest.fixture
def guarded(service: GameService) -> Iterator[tuple[str, int]]:
    limits = Limits(request_head_timeout=0.5)
    with running(create_app(service=service, limits=TEST_LIMITS), listening(),
                 **uvicorn_options(limits, MAX_MESSAGE)) as address:
        host, port = address.split(":")
        yield host, int(port)


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes the connection (reads EOF) within ``seconds``."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except TimeoutError:
        return False
    except ConnectionError:
        pass
    return True


def test_a_socket_that_never_sends_a_request_is_closed(guarded: tuple[str, int]) -> None:
    silent = socket.create_connection(guarded)
    slow = socket.create_connection(guarded)
    slow.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")  # a head that never ends
    try:
        assert _closed_within(silent, 5) and _closed_within(slow, 5)
    finally:
        silent.close()
        slow.close()
    with socket.create_connection(guarded) as ok:  # a whole request is answered as ever
        ok.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        ok.settimeout(5)
        assert ok.recv(65536).startswith(b"HTTP/1.1 200")


def test_an_eight_mib_header_is_refused_at_the_parser(guarded: tuple[str, int]) -> None:
    with socket.create_connection(guarded) as sock:
        sock.settimeout(5)
        try:
            sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (8 * 1024 * 1024) + b"\r\n\r\n")
        except ConnectionError:
            return  # dropped before it was all sent: refused
        answer = sock.recv(65536)
        assert answer == b"" or answer.startswith(b"HTTP/1.1 4")


def _post_from(address: str, source: str, path: str, body: str) -> int:
    """POST from the loopback address ``source``: the status, or 0 when the server closed
    the connection instead of answering."""
    import http.client

    host, port = address.split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=5, source_address=(source, 0))
    try:
        conn.request("POST", path, body, {"Content-Type": "application/json"})
        return conn.getresponse().status
    except (ConnectionError, http.client.RemoteDisconnected):
        return 0
    finally:
        conn.close()


def test_an_address_that_ignores_retry_after_is_closed_at_the_socket_until_then(service: GameService) -> None:
    """A script that asks again as soon as it is refused costs the server a parse and an
    answer each time: after ``shun_after`` refusals within one Retry-After, its
    connections are closed as they are made. Others are served as ever, and the machine's
    own address (a reverse proxy on the same host) is never shunned."""
    limits = Limits(games_per_address="2/minute", shun_after=3)
    app = create_app(service=service, limits=limits)
    body = '{"game": "tomb", "seats": [{"name": "me"}]}'
    with running(app, listening(), **uvicorn_options(limits, MAX_MESSAGE, app.state.shunned)) as address:
        statuses = [_post_from(address, "127.0.0.2", "/api/games", body) for _ in range(8)]
        assert statuses[:2] == [201, 201] and statuses[2:5] == [429, 429, 429]  # told when to come back
        assert statuses[5:] == [0, 0, 0]  # came back anyway: closed before a byte was read
        assert _post_from(address, "127.0.0.3", "/api/games", body) == 201  # everyone else as ever
        local = [_post_from(address, "127.0.0.1", "/api/games", body) for _ in range(8)]
        assert local[:2] == [201, 201] and set(local[2:]) == {429}


def test_shunned_addresses_are_bounded_and_expire() -> None:
    now = [0.0]
    shunned = Shunned(after=2, capacity=2, clock=lambda: now[0])
    for address in ("10.0.0.1", "10.0.0.1", "10.0.0.2", "10.0.0.2"):
        shunned.refused(address, 30)
    assert shunned.shunned("10.0.0.1") and shunned.shunned("10.0.0.2")
    shunned.refused("10.0.0.3", 30)  # a third address: the oldest is let go
    assert not shunned.shunned("10.0.0.1") and shunned.shunned("10.0.0.2")
    now[0] = 31.0  # the window is over: welcome back
    assert not shunned.shunned("10.0.0.2")
    shunned.refused("10.0.0.2", 30)
    assert not shunned.shunned("10.0.0.2")  # a new window starts counting afresh


# -- one IPv6 host is one client (issue 32) ------------------------------------------------------

def test_an_ipv6_address_counts_as_its_64_for_every_per_address_limit() -> None:
    assert address_group("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64"
    assert address_group("2001:db8:1:2:aaaa::1", 48) == "2001:db8:1::/48"
    assert address_group("::ffff:10.0.0.1") == "10.0.0.1"  # IPv4 written as IPv6
    assert address_group("10.0.0.1") == "10.0.0.1" and address_group("::1") == "::1"
    assert address_group("fe80::1%eth0") == "fe80::/64" and address_group("testclient") == "testclient"
    assert address_group(None) == "unknown"


def test_25_games_from_25_addresses_of_one_64_are_one_clients_allowance(service: GameService) -> None:
    """Issue 32: 25 games from 25 addresses of one /64 were all accepted."""
    app = create_app(service=service, limits=Limits(games_per_address="20/minute"))
    body = {"game": "tomb", "seats": [{"name": "Ada"}]}
    statuses = []
    for host in range(25):
        with TestClient(app, client=(f"2001:db8:1:2::{host + 1:x}", 1)) as c:
            statuses.append(c.post("/api/games", json=body).status_code)
    assert statuses == [201] * 20 + [429] * 5
    with TestClient(app, client=("2001:db8:1:3::1", 1)) as other:  # the next /64 is another client
        assert other.post("/api/games", json=body).status_code == 201


def test_an_ipv6_host_that_ignores_retry_after_is_shunned_with_its_whole_64() -> None:
    shunned = Shunned(after=3, clock=lambda: 0.0)
    for host in range(3):
        shunned.refused(f"2001:db8::{host + 1}", 60)
    assert shunned.shunned("2001:db8::ffff") and not shunned.shunned("2001:db8:0:1::1")


# -- connections per address (issue 32) -------------------------------------------------------------

def _connect_from(address: tuple[str, int], source: str) -> socket.socket:
    sock = socket.socket()
    sock.bind((source, 0))
    sock.connect(address)
    return sock


def test_an_address_holds_a_bounded_number_of_connections(service: GameService) -> None:
    """1,500 idle connections took every file descriptor and failed the health probes:
    each address (here 127.0.0.7; the machine's own 127.0.0.1 is a proxy's, not counted)
    holds at most ``connections_per_address``, websockets included, and gets each back as
    it closes."""
    limits = replace(TEST_LIMITS, connections_per_address=2)
    options = uvicorn_options(limits, MAX_MESSAGE)
    released = threading.Semaphore(0)

    class Counted(options["http"]):  # type: ignore[misc, valid-type]
        def _release(self) -> None:
            counted = self._counted is not None
            super()._release()
            if counted:
                released.release()

    options["http"] = Counted
    with running(create_app(service=service, limits=limits), listening(), **options) as served:
        host, port = served.split(":")
        address = (host, int(port))
        first, second = _connect_from(address, "127.0.0.7"), _connect_from(address, "127.0.0.7")
        third = _connect_from(address, "127.0.0.7")
        assert _closed_within(third, 5)  # over its share: closed at once
        third.close()
        with _connect_from(address, "127.0.0.8") as other:  # another address is served
            other.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            other.settimeout(5)
            assert other.recv(65536).startswith(b"HTTP/1.1 200")
        assert released.acquire(timeout=30)  # (127.0.0.8's)
        first.close()
        assert released.acquire(timeout=30)
        with _connect_from(address, "127.0.0.7") as again:  # room again
            again.sendall(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
            again.settimeout(5)
            assert again.recv(65536).startswith(b"HTTP/1.1 200")
        assert released.acquire(timeout=30)
        with connect(f"ws://{served}/ws/echo", sock=_connect_from(address, "127.0.0.7")):  # a websocket counts
            assert _closed_within(_connect_from(address, "127.0.0.7"), 5)  # second + the websocket: full
        assert released.acquire(timeout=30)  # released by the websocket's own end
        second.close()
        assert released.acquire(timeout=30)
        assert Counted.open_connections == {}


def test_the_server_raises_its_limit_of_open_files() -> None:
    resource = pytest.importorskip("resource", reason="a limit of open files is a POSIX thing")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(1024, hard), hard))  # the common default
        before, after = raise_open_files(4096) or (0, 0)
        assert before == min(1024, hard) and after == min(4096, hard)
        assert resource.getrlimit(resource.RLIMIT_NOFILE)[0] == after
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_each_limit_is_declared_at_its_route_and_read_by_the_guard(client: TestClient) -> None:
    """The guard counts what the routes declare (``limits.rate_limit``), read from the app
    (included routers too), and /openapi.json says it beside each operation."""
    guarded, charged = rated_routes(client.app)
    table = {(method, pattern.pattern, kind) for method, pattern, kind in guarded}
    assert ("POST", "^/api/games$", "games") in table and ("GET", "^/api/print/tomb\\.svg$", "prints") in table
    assert ("POST", "^/api/games/(?P<game_id>[^/]+)/actions$", "actions") in table and len(table) == 14
    assert [(m, p.pattern, k) for m, p, k in charged] == [("POST", "^/api/daily/(?P<game>[^/]+)$", "games")]
    paths = client.get("/openapi.json").json()["paths"]
    assert paths["/api/games/{game_id}/actions"]["post"]["x-rate-limit"] == "actions"
    with pytest.raises(ValueError, match="no limit called"):
        rate_limit("everything")
