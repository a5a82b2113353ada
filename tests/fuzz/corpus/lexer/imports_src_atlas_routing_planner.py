from . import costs
from .graph import Graph
from .solvers.dijkstra import shortest_path


def plan(graph: Graph, start, goal, mode="walk"):
    """The stops of the shortest route and its duration in minutes."""
    stops, km, _miles = shortest_path(graph, start, goal)
    return stops, round(costs.travel_minutes(km, mode))
