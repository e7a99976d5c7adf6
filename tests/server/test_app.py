"""The app's life (``mummy.server.app``): its garbage collections (issue 32).

Python's own full collections stalled the event loop for 90-165 ms every few seconds
under a burst of connections; the app turns them off while it lives and collects the
whole heap on a schedule instead (``scheduled_collections``)."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from mummy.server.app import NEVER, create_app, freeze_long_lived
from mummy.server.play.service import GameService
from tests.server.conftest import TEST_LIMITS


@pytest.fixture
def full_collections() -> Iterator[threading.Event]:
    """Set at each full collection of this process (a gc callback, removed after)."""
    seen = threading.Event()

    def callback(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            seen.set()

    gc.callbacks.append(callback)
    yield seen
    gc.callbacks.remove(callback)


def test_python_collects_the_young_and_the_app_the_whole_heap_on_its_schedule(
        service: GameService, full_collections: threading.Event) -> None:
    before = gc.get_threshold()
    with TestClient(create_app(service=service, limits=TEST_LIMITS, full_collection_every=0.05)):
        young0, young1, whole = gc.get_threshold()
        assert (young0, young1) == before[:2] and whole == NEVER  # Python's own full ones: off
        full_collections.clear()
        assert full_collections.wait(30), "no full collection came on the app's schedule"
    assert gc.get_threshold() == before  # as it found them


def test_two_apps_in_one_process_give_back_the_thresholds_the_first_found(service: GameService) -> None:
    before = gc.get_threshold()
    outer = TestClient(create_app(service=service, limits=TEST_LIMITS))
    inner = TestClient(create_app(service=service, limits=TEST_LIMITS))
    with outer:
        with inner:
            assert gc.get_threshold()[2] == NEVER
        assert gc.get_threshold()[2] == NEVER  # the outer app still lives
    assert gc.get_threshold() == before


def test_an_app_without_a_schedule_leaves_pythons_collections_alone(service: GameService) -> None:
    before = gc.get_threshold()
    with TestClient(create_app(service=service, limits=TEST_LIMITS, full_collection_every=None)):
        assert gc.get_threshold() == before


def test_what_lives_as_long_as_the_process_is_frozen_once() -> None:
    freeze_long_lived()
    frozen = gc.get_freeze_count()
    assert frozen > 0
    freeze_long_lived()  # a second app of the process: nothing more to walk
    assert gc.get_freeze_count() == frozen
