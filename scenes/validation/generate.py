#!/usr/bin/env python3
"""Writes the RiMEA validation scenes (scenes/validation/rimea_*.ron) and their pass criteria
(*.criteria). The scenes are plain data; this script only places the many agents reproducibly
(fixed seed). Run from this folder: python3 generate.py"""

import math
import random

rng = random.Random(2026)


def fmt(x):
    return f"{x:.3f}".rstrip("0").rstrip(".") if "." in f"{x:.3f}" else f"{x}"


def pt(p):
    return f"({float(p[0]):.3f}, {float(p[1]):.3f})"


def profile(name, speed, radius=0.2, separation=0.8):
    return f"""    (
      name: "{name}",
      radius: {radius},
      mass: 1.0,
      max_speed: {speed * 1.2:.3f},
      preferred_speed: {speed:.3f},
      max_force: 4.0,
      max_turn_rate_deg: 360.0,
      behaviours: [
        (behaviour: Arrive(deceleration: Fast), weight: 1.0),
        (behaviour: Separation(view_radius: {separation}), weight: 0.3),
      ],
      combiner: WeightedTruncatedSum,
    ),"""


def wall(a, b):
    return f"    Wall(a: {pt(a)}, b: {pt(b)}),"


def agent(i, prof, p, heading, goal, start=0.0):
    extra = f", start_time: {start:.1f}" if start else ""
    return f'    (id: {i}, profile: "{prof}", position: {pt(p)}, heading_deg: {heading:.1f}, goal: {goal}{extra}),'


def scene(file, name, description, bounds, duration, profiles, agents, targets=(), paths=(), walls=(),
          areas=(), lines=(), dt=0.1):
    text = f"""(
  version: 1,
  name: "{name}",
  description: "{description}",
  bounds: (min: {pt(bounds[0])}, max: {pt(bounds[1])}),
  settings: (dt: {dt}, seed: 1, duration: {duration:.1f}, on_arrival: Remove, neighbour_index: Grid(cell_size: 1.0)),
  profiles: [
{chr(10).join(profiles)}
  ],
  agents: [
{chr(10).join(agents)}
  ],
  targets: [
{chr(10).join(f'    (id: "{i}", position: {pt(p)}, radius: {r}),' for i, p, r in targets)}
  ],
  paths: [
{chr(10).join(f'    (id: "{i}", points: [{", ".join(pt(q) for q in pts)}], width: {w}, closed: false),' for i, pts, w in paths)}
  ],
  obstacles: [
{chr(10).join(wall(a, b) for a, b in walls)}
  ],
  measurement_areas: [
{chr(10).join(f'    (id: "{i}", min: {pt(a)}, max: {pt(b)}),' for i, a, b in areas)}
  ],
  measurement_lines: [
{chr(10).join(f'    (id: "{i}", a: {pt(a)}, b: {pt(b)}),' for i, a, b in lines)}
  ],
)
"""
    with open(file + ".ron", "w") as f:
        f.write(text)


def criteria(file, test, fast, checks):
    with open(file + ".criteria", "w") as f:
        f.write(f'(\n  test: "{test}",\n  fast: {str(fast).lower()},\n  criteria: [\n')
        for c in checks:
            f.write(f"    {c},\n")
        f.write("  ],\n)\n")


def rect(x0, y0, x1, y1):
    return [((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)), ((x0, y1), (x0, y0))]


# RiMEA 1: one person, 2 x 40 m corridor, 1.33 m/s.
scene("rimea_01_corridor", "RiMEA 1: speed in a corridor",
      "RiMEA test 1: one person walks the 40 m of a 2 m wide corridor at 1.33 m/s. Pass: the travel time lies "
      "in 26-34 s (40 cm body, 1 s pre-movement and 5 % speed tolerances). Watch the walker cross at constant speed.",
      ((-1, -1), (42, 3)), 60, [profile("walker", 1.33)],
      [agent(0, "walker", (0.0, 1.0), 0, 'Target("end")')],
      targets=[("end", (40.0, 1.0), 0.1)],
      walls=[((-0.5, 0), (40.5, 0)), ((-0.5, 2), (40.5, 2))],
      lines=[("end", (40.0, 0.0), (40.0, 2.0))])
criteria("rimea_01_corridor", "RiMEA 1", True, ["TravelTime(min: 26.0, max: 34.0)", "AllArrive"])

# RiMEA 5: 10 persons in an 8 x 5 m room with a 1 m exit mid 5 m wall, start times U(10, 100) s.
room5 = [((0, 0), (8, 0)), ((8, 0), (8, 2)), ((8, 3), (8, 5)), ((8, 5), (0, 5)), ((0, 5), (0, 0))]
a5 = []
for i in range(10):
    p = (0.8 + (i % 5) * 1.4, 1.2 + (i // 5) * 2.6)
    a5.append(agent(i, "walker", p, 0, 'Path("out")', start=round(rng.uniform(10, 100), 1)))
scene("rimea_05_premovement", "RiMEA 5: pre-movement times",
      "RiMEA test 5: ten persons in an 8 x 5 m room with a 1 m exit in the middle of a 5 m wall; each is given a "
      "pre-movement time drawn from U(10, 100) s (agent start_time). Pass: each starts moving at its assigned time "
      "(within one second) and leaves. Watch them set off one by one.",
      ((-1, -1), (12, 6)), 160, [profile("walker", 1.33)], a5,
      paths=[("out", [(7.0, 2.5), (8.0, 2.5), (10.0, 2.5)], 0.6)],
      walls=room5, lines=[("exit", (8.0, 2.0), (8.0, 3.0))])
criteria("rimea_05_premovement", "RiMEA 5", True, ["StartDelay(max: 1.0)", "AllArrive"])

# RiMEA 6: 20 persons round a 90 degree corner of a 2 m wide corridor.
a6 = []
for i in range(20):
    a6.append(agent(i, "walker", (0.5 + (i // 2) * 0.9, 0.6 + (i % 2) * 0.8), 0, 'Path("corner")'))
scene("rimea_06_corner", "RiMEA 6: movement around a corner",
      "RiMEA test 6: twenty persons walk a 2 m wide corridor that turns left by 90 degrees. Pass: no one enters "
      "the walls (no contact deeper than 1 mm with any wall) and everyone reaches the end. Watch the group hug "
      "the inner corner without cutting through it.",
      ((-1, -1), (13, 13)), 60, [profile("walker", 1.33)], a6,
      paths=[("corner", [(10.0, 1.0), (11.0, 2.0), (11.0, 11.5)], 0.8)],
      walls=[((0, 0), (12, 0)), ((12, 0), (12, 12)), ((0, 2), (10, 2)), ((10, 2), (10, 12))],
      lines=[("end", (10.0, 11.0), (12.0, 11.0))])
criteria("rimea_06_corner", "RiMEA 6", True, ["NoWallPenetration", "AllArrive"])

# RiMEA 7: 50 adults with speeds by age group (Weidmann's age curve, read off in decades).
age_bands = [(20, 1.30, 1.60), (30, 1.25, 1.55), (40, 1.15, 1.45), (50, 1.05, 1.35), (60, 0.90, 1.25),
             (70, 0.70, 1.05)]
p7, a7, t7 = [], [], []
for i in range(50):
    age, lo, hi = age_bands[i % len(age_bands)]
    v = rng.uniform(lo, hi)
    p7.append(profile(f"age{age}_{i}", v))
    y = 0.5 + i * 0.6
    a7.append(agent(i, f"age{age}_{i}", (0.0, y), 0, f'Target("lane{i}")'))
    t7.append((f"lane{i}", (100.0, y), 0.1))
scene("rimea_07_demographics", "RiMEA 7: demographic speed distribution",
      "RiMEA test 7: fifty adults, each with a walking speed drawn from the Weidmann age curve for its decade "
      "(20-79 years, 0.70-1.60 m/s), walk 100 m in parallel lanes. Pass: each walks at its assigned speed "
      "(within 5 %) and the travel times lie in 50-220 s. Watch the line spread out by age.",
      ((-1, -1), (102, 31)), 240, p7, a7, targets=t7)
criteria("rimea_07_demographics", "RiMEA 7", True,
         ["SpeedMatchesProfile(tolerance: 0.05)", "TravelTime(min: 50.0, max: 220.0)", "AllArrive"])

# RiMEA 9: 1000 persons in a 30 x 20 m room with four 1 m exits, and (second room) with two.
def room9(x0, exits, prof, first_id):
    walls, paths, agents = [], [], []
    left = [e for e in exits if e[0] == "left"]
    right = [e for e in exits if e[0] == "right"]

    def side_wall(x, doors):
        ys = [0.0] + [v for _, y in doors for v in (y - 0.5, y + 0.5)] + [20.0]
        return [((x, ys[k]), (x, ys[k + 1])) for k in range(0, len(ys), 2)]

    walls += side_wall(x0, left) + side_wall(x0 + 30, right)
    walls += [((x0, 0), (x0 + 30, 0)), ((x0, 20), (x0 + 30, 20))]
    for side, y in exits:
        sx = x0 if side == "left" else x0 + 30
        d = -1 if side == "left" else 1
        paths.append((f"{prof}_{side}_{int(y)}", [(sx - d * 0.8, y), (sx, y), (sx + d * 2.5, y)], 0.8))
    ids = first_id
    for r in range(40):
        for c in range(25):
            p = (x0 + 3.0 + c * 1.0 + (0.5 if r % 2 else 0.0), 0.5 + r * 0.48)
            best = min(exits, key=lambda e: math.dist(p, (x0 if e[0] == "left" else x0 + 30, e[1])))
            agents.append(agent(ids, prof, p, 0, f'Path("{prof}_{best[0]}_{int(best[1])}")'))
            ids += 1
    return walls, paths, agents


w4, pa4, ag4 = room9(0.0, [("left", 5.0), ("left", 15.0), ("right", 5.0), ("right", 15.0)], "four_exits", 0)
w2, pa2, ag2 = room9(50.0, [("right", 5.0), ("right", 15.0)], "two_exits", 1000)
scene("rimea_09_large_room", "RiMEA 9: leaving a large public room",
      "RiMEA test 9: 1,000 persons leave a 30 x 20 m room through four 1 m exits (left room) and, in the right "
      "room, the same crowd through two exits on one wall. Each walks to its nearest open exit. Pass: the two-exit "
      "evacuation takes 1.6-2.4 times as long as the four-exit one, and everyone gets out. Watch queues form "
      "at every door.",
      ((-4, -1), (84, 21)), 900, [profile("four_exits", 1.34), profile("two_exits", 1.34)], ag4 + ag2,
      paths=pa4 + pa2, walls=w4 + w2)
criteria("rimea_09_large_room", "RiMEA 9", False,
         ['EvacuationRatio(numerator: "two_exits", denominator: "four_exits", min: 1.6, max: 2.4)', "AllArrive"])

# RiMEA 12: room (10 x 10) -> corridor (5 x 1 m) -> room (10 x 10), 150 persons.
w12 = rect(0, 0, 10, 10)
w12 = [((0, 0), (10, 0)), ((10, 0), (10, 4.5)), ((10, 5.5), (10, 10)), ((10, 10), (0, 10)), ((0, 10), (0, 0)),
       ((10, 4.5), (15, 4.5)), ((10, 5.5), (15, 5.5)),
       ((15, 0), (15, 4.5)), ((15, 5.5), (15, 10)), ((15, 0), (25, 0)), ((25, 0), (25, 10)), ((25, 10), (15, 10))]
a12 = []
for i in range(150):
    r, c = divmod(i, 10)
    a12.append(agent(i, "walker", (0.5 + c * 0.75 + (0.35 if r % 2 else 0), 0.5 + r * 0.6), 0, 'Path("through")'))
scene("rimea_12_bottleneck", "RiMEA 12: effect of a bottleneck",
      "RiMEA test 12: 150 persons leave a 10 x 10 m room through a 5 m long, 1 m wide corridor into a second "
      "room and cross it. Pass: congestion (peak density of at least 2 persons/m2) forms only in front of the "
      "corridor, never behind it (below 2 persons/m2 in room 2). Watch the queue build at the corridor mouth "
      "and the flow thin out behind it.",
      ((-1, -1), (26, 11)), 400, [profile("walker", 1.34)], a12,
      paths=[("through", [(9.4, 5.0), (15.4, 5.0), (24.0, 5.0)], 0.8)],
      walls=w12,
      areas=[("before", (8.0, 4.0), (10.0, 6.0)), ("after", (15.0, 4.0), (17.0, 6.0))],
      lines=[("corridor_exit", (15.0, 4.5), (15.0, 5.5))])
criteria("rimea_12_bottleneck", "RiMEA 12", False,
         ['PeakDensity(area: "before", min: Some(2.0), max: None)',
          'PeakDensity(area: "after", min: None, max: Some(2.0))', "AllArrive"])

# RiMEA 4: fundamental diagram, one 2 m wide corridor per density with a 2 x 2 m measuring area.
densities = [0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
a4, t4, w4c, ar4 = [], [], [], []
ids = 0
for k, rho in enumerate(densities):
    y0 = k * 3.0
    w4c += [((-0.5, y0), (60.5, y0)), ((-0.5, y0 + 2), (60.5, y0 + 2))]
    t4.append((f"end{k}", (60.0, y0 + 1.0), 0.5))
    ar4.append((f"rho_{rho:g}", (30.0, y0), (32.0, y0 + 2.0)))
    n = int(round(rho * 2.0 * 25.0))
    spacing = 1.0 / math.sqrt(rho)
    rows = max(1, min(5, round(2.0 / spacing)))
    dy = 2.0 / rows
    cols = math.ceil(n / rows)
    dx = 25.0 / cols
    for j in range(n):
        c, r = divmod(j, rows)
        p = (0.25 + c * dx + (dx * 0.5 if r % 2 else 0.0), y0 + dy * (r + 0.5))
        a4.append(agent(ids, "walker", p, 0, f'Target("end{k}")'))
        ids += 1
scene("rimea_04_fundamental_diagram", "RiMEA 4: fundamental diagram",
      "RiMEA test 4: seven parallel 2 m wide corridors, each filled over 25 m at 0.5, 1, 2, 3, 4, 5 or 6 "
      "persons/m2, walk toward their far end through a 2 x 2 m measuring area. Pass: in every area the mean "
      "speed (10-60 s, occupied ticks) lies within 0.25 m/s of Weidmann's speed at the measured density. "
      "Watch denser corridors slow down.",
      ((-1, -1), (61, 21)), 60, [profile("walker", 1.34, radius=0.18, separation=0.6)], a4,
      targets=t4, walls=w4c, areas=ar4)
criteria("rimea_04_fundamental_diagram", "RiMEA 4", False,
         ["FundamentalDiagram(from: 10.0, to: 60.0, tolerance: 0.25)"])
