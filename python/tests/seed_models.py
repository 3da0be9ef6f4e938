"""Example pydantic models (a trip's ``Waypoint`` and ``Itinerary``), shared by the tests that use them."""

from __future__ import annotations

from typing import List

from pydantic import BaseModel, Field


class Waypoint(BaseModel):
    """A stop on the way.

    Args:
        city: Where the traveller stops.
        nights: How long they stay, in nights.
    """

    city: str
    nights: int = 1


class Itinerary(BaseModel):
    """A trip.

    Args:
        stops: The stops, in order.
    """

    name: str = Field(description="The trip's own name.")
    stops: List[Waypoint]
