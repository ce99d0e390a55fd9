"""Tags that build repeated HTML in Python: ``{% options %}`` (the treasury page's <option>
lists) and ``{% experience_boxes %}`` (the roster's experience tracks)."""

from types import SimpleNamespace

from django.template import Context, Template

from campaign.options import Choices, render_options


class Box(SimpleNamespace):
    def __str__(self) -> str:
        return self.label


def box(pk, label, holder=None):
    return Box(pk=pk, label=label, holder=holder, holder_id=holder and holder.pk)


def test_options_escape_names_and_leave_out_the_excluded_one():
    hero = SimpleNamespace(pk=7, name="Gunther <the {Bold}>")
    boxes = Choices([box(1, "Chest “<b>{0}</b>”"), box(2, "Pouch", holder=hero), box(3, "Cart")])

    html = render_options(boxes, "holder", exclude=3, selected=2)

    assert html == (
        '<option value="1">Chest “&lt;b&gt;{0}&lt;/b&gt;”</option>'
        '<option value="2" selected>Pouch (Gunther &lt;the {Bold}&gt;)</option>'
    )
    assert render_options(boxes) == (
        '<option value="1">Chest “&lt;b&gt;{0}&lt;/b&gt;”</option>'
        '<option value="2">Pouch</option><option value="3">Cart</option>'
    )


def test_a_henchman_group_is_named_with_its_size():
    warriors = [
        SimpleNamespace(pk=1, name="Aldo", is_hero=True, group_size=1),
        SimpleNamespace(pk=2, name="Thugs", is_hero=False, group_size=3),
    ]
    assert render_options(warriors, "group") == (
        '<option value="1">Aldo</option><option value="2">Thugs (×3)</option>'
    )


def test_the_tag_renders_the_same_as_a_template_loop():
    boxes = Choices([box(1, "Chest"), box(2, "Sack & <Co>")])
    loop = Template(
        '{% for t in targets %}{% if t.pk != c.pk %}<option value="{{ t.pk }}">{{ t }}</option>'
        "{% endif %}{% endfor %}"
    )
    tag = Template("{% options targets exclude=c.pk %}")
    for excluded in (1, 2, None):
        context = {"targets": boxes, "c": SimpleNamespace(pk=excluded)}
        assert tag.render(Context(context)) == loop.render(Context(context))
    assert boxes.built  # built once, kept for the next card


def test_experience_boxes_render_as_the_template_loop_did():
    boxes = [
        SimpleNamespace(ticked=t, thick=h, starting=s)
        for t in (False, True)
        for h in (False, True)
        for s in (False, True)
    ]
    loop = Template(
        '{% for box in track %}<li class="{% if box.ticked %}ticked{% endif %}'
        '{% if box.thick %} thick{% endif %}{% if box.starting %} starting{% endif %}"></li>'
        "{% endfor %}"
    )
    tag = Template("{% experience_boxes track %}")
    context = {"track": boxes}
    assert tag.render(Context(context)) == loop.render(Context(context))
    assert tag.render(Context(context)).count("<li") == 8
