"""Tags that build repeated HTML in Python: ``{% options %}`` (the treasury page's <option>
lists), ``{% experience_boxes %}`` (the roster's experience tracks) and ``{% ledger_rows %}``
(the treasury's ledger)."""

import datetime
import re
from types import SimpleNamespace

from django.contrib.auth.models import User
from django.template import Context, Template
from django.utils import timezone

from battles.models import Battle
from core.options import OptionList, OptionsSelect, render_options
from warbands.models import LedgerEntry, StorageContainer


class Box(SimpleNamespace):
    def __str__(self) -> str:
        return self.label


def box(pk, label, holder=None):
    return Box(pk=pk, label=label, holder=holder, holder_id=holder and holder.pk)


def test_options_escape_names_and_leave_out_the_excluded_one():
    hero = SimpleNamespace(pk=7, name="Gunther <the {Bold}>")
    boxes = OptionList([box(1, "Chest “<b>{0}</b>”"), box(2, "Pouch", holder=hero), box(3, "Cart")])

    html = render_options(boxes, "holder", exclude=3, selected=2)

    assert html == (
        '<option value="1">Chest “&lt;b&gt;{0}&lt;/b&gt;”</option>'
        '<option value="2" selected>Pouch (Gunther &lt;the {Bold}&gt;)</option>'
    )
    assert render_options(boxes) == (
        '<option value="1">Chest “&lt;b&gt;{0}&lt;/b&gt;”</option>'
        '<option value="2">Pouch</option><option value="3">Cart</option>'
    )


def test_a_forms_select_draws_the_options_it_is_given_with_the_chosen_one_selected():
    """``OptionsSelect``: a form's field drawn from a page's list built once (the treasury's
    board), its first option its own; the posted value is selected instead of the list's
    default, and a value that is no option selects nothing."""
    boxes = OptionList([box(1, "Chest"), box(2, "Sack & <Co>")])
    select = OptionsSelect(attrs={"aria-label": "To"})
    select.source = lambda: render_options(boxes, selected=1)
    select.blank = "Any <one>"

    assert select.render("target", None) == (
        '<select name="target" aria-label="To"><option value="">Any &lt;one&gt;</option>'
        '<option value="1" selected>Chest</option><option value="2">Sack &amp; &lt;Co&gt;</option>'
        "</select>"
    )
    assert '<option value="2" selected>' in select.render("target", "2")
    assert " selected" not in select.render("target", "9")


def test_a_henchman_group_is_named_with_its_size():
    warriors = [
        SimpleNamespace(pk=1, name="Aldo", is_hero=True, group_size=1),
        SimpleNamespace(pk=2, name="Thugs", is_hero=False, group_size=3),
    ]
    assert render_options(warriors, "group") == (
        '<option value="1">Aldo</option><option value="2">Thugs (×3)</option>'
    )


def test_the_tag_renders_the_same_as_a_template_loop():
    boxes = OptionList([box(1, "Chest"), box(2, "Sack & <Co>")])
    loop = Template(
        '{% for t in targets %}{% if t.pk != c.pk %}<option value="{{ t.pk }}">{{ t }}</option>'
        "{% endif %}{% endfor %}"
    )
    tag = Template("{% options targets exclude=c.pk %}")
    for excluded in (1, 2, None):
        context = {"targets": boxes, "c": SimpleNamespace(pk=excluded)}
        assert tag.render(Context(context)) == loop.render(Context(context))
    assert boxes.built  # built once, kept for the next card


def test_containers_with_their_contents_render_as_the_template_loop_did():
    """Step 9's container lists (``_into.html``, ``_pile.html``): the loop they replaced."""
    hero = SimpleNamespace(pk=7, name="Gunther <the Bold>")
    chest = StorageContainer(pk=1, kind="treasure_chest", label="<b>war chest</b>",
                             gold_crowns=24, wyrdstone=3, item_count=1)  # fmt: skip
    pouch = StorageContainer(pk=2, kind="pouch", gold_crowns=5, holder_id=7)
    pouch._state.fields_cache["holder"] = hero  # as select_related leaves it
    sack = StorageContainer(pk=3, kind="large_sack", number=2)
    loop = Template(
        '{% for c in real_containers %}<option value="{{ c.pk }}">{{ c }}{% if c.holder %} of '
        "{{ c.holder.name }}{% endif %} ({{ c.contents_label }})</option>{% endfor %}"
    )
    tag = Template('{% options real_containers "contents" %}')
    context = {"real_containers": OptionList([chest, pouch, sack])}

    html = tag.render(Context(context))

    assert html == loop.render(Context(context))
    assert "Gunther &lt;the Bold&gt; (5 gc)" in html and "(empty)" in html
    assert "(24 gc, 3 wyrdstone, 1 item)" in html and "<b>" not in html


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


LEDGER_LOOP = Template("""{% for entry in ledger_page %}
  <tr>
    <td>{{ entry.created_at|date:"j M Y H:i" }}</td>
    <td>{{ entry.container }}</td>
    <td class="{% if entry.amount < 0 %}minus{% else %}plus{% endif %}">{% if entry.amount > 0 %}+{% endif %}{{ entry.amount }} {{ entry.what }}</td>
    <td>{{ entry.get_reason_display }}{% if entry.battle %}<br><small class="muted">after {{ entry.battle.scenario }}{% if entry.step is not None %}, step {{ entry.step }}{% endif %}</small>{% endif %}</td>
    <td>{{ entry.note }}</td>
    <td>{{ entry.actor.username|default:"—" }}</td>
  </tr>
{% endfor %}""")  # noqa: E501 (the template loop the tag replaced, as it was)


def test_ledger_rows_render_as_the_template_loop_did(settings):
    settings.TIME_ZONE = "Europe/Berlin"  # the date is shown in the site's time zone
    timezone.deactivate()
    chest = StorageContainer(pk=1, kind="treasure_chest", label="<b>war chest</b>")
    battle = Battle(pk=2, scenario="Street <Fight> & co")
    when = datetime.datetime(2026, 3, 1, 23, 30, tzinfo=datetime.UTC)  # 2 Mar in Berlin
    entries = [
        LedgerEntry(container=chest, kind="gold", amount=-3, reason="purchase", note="<i>x</i>",
                    actor=User(username="a&b"), created_at=when),
        LedgerEntry(container=chest, kind="wyrdstone", amount=2, reason="income", battle=battle,
                    step=4, created_at=when),
        LedgerEntry(container=chest, kind="item", item_name="Sword & Board", amount=1,
                    reason="income", battle=battle, step=None, created_at=when),
        LedgerEntry(container=chest, kind="gold", amount=0, reason="income", created_at=when),
    ]  # fmt: skip

    def tight(html):
        return re.sub(r">\s+<", "><", html).strip()

    context = {"ledger_page": entries}
    tag = Template("{% ledger_rows ledger_page %}").render(Context(context))
    assert tight(tag) == tight(LEDGER_LOOP.render(Context(context)))
    assert tag.count("<tr>") == 4 and "2 Mar 2026 00:30" in tag
    assert "&lt;Fight&gt; &amp; co" in tag and "<b>" not in tag and "a&amp;b" in tag
