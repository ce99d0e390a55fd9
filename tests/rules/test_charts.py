import datetime
import itertools

from league.charts import HEIGHT, PALETTE, Series, rating_chart

DAY = datetime.datetime(2026, 11, 1, 12, tzinfo=datetime.UTC)


def at(days: int) -> datetime.datetime:
    return DAY + datetime.timedelta(days=days)


def test_nothing_to_draw():
    assert rating_chart([]) is None
    assert rating_chart([Series("Empty", [])]) is None


def test_points_run_left_to_right_in_time_and_higher_ratings_are_higher_up():
    chart = rating_chart([Series("Reavers", [(at(7), 120), (at(0), 100), (at(14), 110)])])

    (line,) = chart.lines
    xs = [x for x, _, _ in line.dots]
    ys = {value: y for _, y, value in line.dots}
    assert xs == sorted(xs) and xs[0] == chart.plot_left and xs[-1] == chart.plot_right
    assert ys[120] < ys[110] < ys[100]  # SVG y grows downwards
    assert [value for _, _, value in line.dots] == [100, 120, 110]
    assert line.points.count(",") == 3


def test_axis_ticks_cover_the_ratings_in_round_steps():
    chart = rating_chart([Series("A", [(at(0), 83)]), Series("B", [(at(3), 147)])])

    values = [value for _, value in chart.y_ticks]
    assert values[0] <= 83 and values[-1] >= 147
    steps = {b - a for a, b in itertools.pairwise(values)}
    assert len(steps) == 1 and steps.pop() in (5, 10, 20, 25, 50)
    assert all(chart.plot_top <= y <= HEIGHT - 28 for y, _ in chart.y_ticks)


def test_each_warband_gets_its_own_colour_and_labels_do_not_overlap():
    series = [Series(f"W{n}", [(at(0), 100), (at(1), 100)]) for n in range(3)]

    chart = rating_chart(series)

    assert [line.colour for line in chart.lines] == list(PALETTE[:3])
    label_ys = sorted(line.label_y for line in chart.lines)
    assert all(b - a >= 13 for a, b in itertools.pairwise(label_ys))


def test_a_single_moment_is_drawn_in_the_middle():
    chart = rating_chart([Series("Alone", [(at(0), 90)])])

    ((x, _, _),) = chart.lines[0].dots
    assert x == (chart.plot_left + chart.plot_right) / 2


def test_more_warbands_than_colours_draw_only_the_highest_rated():
    series = [Series(f"W{n}", [(at(0), 100), (at(5), 100 + n)]) for n in range(12)]

    chart = rating_chart(series)

    assert len(chart.lines) == len(PALETTE)
    assert sorted(line.name for line in chart.lines) == sorted(f"W{n}" for n in range(4, 12))
    assert len({line.colour for line in chart.lines}) == len(PALETTE)
