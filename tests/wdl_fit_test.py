#!/usr/bin/python3
"""wdl_fit_test.py — scripts/wdl-fit.py recovers a known model: positions
drawn with scores and material like the store's, their results drawn from a
model with known coefficients, and the fit must give back a(m) and b(m)
within 5 % and every chance within 1 point, at every material. No engine is
run. Prints 'N passed, N failed' and exits nonzero on a failure.

    /usr/bin/python3 tests/wdl_fit_test.py
"""
import importlib.util
import os
import sys

import numpy as np

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
spec = importlib.util.spec_from_file_location("wdl_fit", os.path.join(ROOT, "scripts", "wdl-fit.py"))
wdl_fit = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wdl_fit)

TRUE_PARAMS = np.array([40.0, 45.0, -320.0, 340.0, 20.0, -80.0, 140.0, 40.0])
POSITIONS = 400_000
results = {"passed": 0, "failed": 0}


def check(ok, what):
    results["passed" if ok else "failed"] += 1
    if not ok:
        print("FAIL: " + what)


def synthetic(params, n, seed=1):
    """n positions: material uniform over 17..78, scores spread like a
    game's, results drawn from the model's chances (0 loss, 1 draw, 2 win)."""
    rng = np.random.default_rng(seed)
    material = rng.integers(wdl_fit.MATERIAL_MIN, wdl_fit.MATERIAL_MAX + 1, n)
    score = np.clip(np.rint(rng.normal(0, 250, n)), -wdl_fit.SCORE_LIMIT, wdl_fit.SCORE_LIMIT).astype(np.int64)
    loss, draw, _ = wdl_fit.probabilities(params, score.astype(float), material.astype(float))
    u = rng.random(n)
    result = np.where(u < loss, 0, np.where(u < loss + draw, 1, 2))
    return score, result, material


def test_recovers_known_parameters():
    fitted = wdl_fit.fit(*wdl_fit.aggregate(*synthetic(TRUE_PARAMS, POSITIONS)))
    m = np.arange(wdl_fit.MATERIAL_MIN, wdl_fit.MATERIAL_MAX + 1, dtype=float)
    for name, part in (("a", slice(0, 4)), ("b", slice(4, 8))):
        want, got = wdl_fit.poly(TRUE_PARAMS[part], m), wdl_fit.poly(fitted[part], m)
        worst = np.max(np.abs(got / want - 1))
        check(worst < 0.05, f"{name}(m) recovered within {worst:.1%} at worst, not 5 %")
    x = np.arange(-600, 601, 10, dtype=float)
    grid_x, grid_m = np.meshgrid(x, m)
    want = np.stack(wdl_fit.probabilities(TRUE_PARAMS, grid_x, grid_m))
    got = np.stack(wdl_fit.probabilities(fitted, grid_x, grid_m))
    worst = np.max(np.abs(got - want))
    check(worst < 0.01, f"chances recovered within {worst:.4f} at worst, not 0.01")


def test_likelihood_is_best_at_the_fit():
    data = wdl_fit.aggregate(*synthetic(TRUE_PARAMS, 50_000, seed=2))
    fitted = wdl_fit.fit(*data)
    best = wdl_fit.neg_log_likelihood(fitted, *data)
    check(best <= wdl_fit.neg_log_likelihood(TRUE_PARAMS, *data) + 1e-9, "the fit is less likely than the truth")
    for i in range(8):
        for sign in (-1, 1):
            nudged = fitted.copy()
            nudged[i] += sign * 0.01 * max(1.0, abs(fitted[i]))
            check(wdl_fit.neg_log_likelihood(nudged, *data) >= best - 1e-12, f"coefficient {i} nudged is likelier")


def test_source_lines_are_read_back():
    """The coefficients the script prints for src/wdl.c, and those in
    src/wdl.c itself, are read back as eight numbers."""
    written = wdl_fit.c_source(TRUE_PARAMS, "scripts/wdl-fit.py")
    check(np.allclose(wdl_fit.source_params(written), TRUE_PARAMS), "c_source's lines read back")
    with open(os.path.join(ROOT, "src", "wdl.c")) as f:
        current = wdl_fit.source_params(f.read())
    check(current is not None and len(current) == 8, "src/wdl.c's coefficients read")
    check(wdl_fit.source_params("no coefficients here") is None, "text without them gives None")


def test_records_are_read_from_the_view_of_the_side_to_move():
    records = np.zeros(2, dtype=wdl_fit.RECORD)
    records["occupancy"] = [(1 << 4) | (1 << 60) | (1 << 3), (1 << 4) | (1 << 60)]
    records["pieces"][0, 0] = 4 | (5 << 4)  # d1 white queen, e1 white king
    records["pieces"][0, 1] = 11             # e8 black king
    records["pieces"][1, 0] = 5 | (11 << 4)
    records["score"], records["result"], records["stm"] = [300, 300], [2, 2], [1, 0]
    records["occupancy"][1] = (1 << 4) | (1 << 60)
    check(list(wdl_fit.material_of(records)) == [9, 0], f"material {list(wdl_fit.material_of(records))}, not [9, 0]")
    score, result, material = wdl_fit.samples_of(records)
    check(list(score) == [-300, 300] and list(result) == [0, 2], f"scores {list(score)} results {list(result)}")
    check(list(material) == [wdl_fit.MATERIAL_MIN] * 2, f"material {list(material)} not clamped to the minimum")


def main():
    with np.errstate(over="ignore"):
        test_source_lines_are_read_back()
        test_records_are_read_from_the_view_of_the_side_to_move()
        test_likelihood_is_best_at_the_fit()
        test_recovers_known_parameters()
    print(f"wdl_fit_test: {results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
