"""Placeholder router: filled in by its owner (see the module's issue)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
