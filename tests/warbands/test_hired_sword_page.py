"""The catalogue of hired swords while mustering: a page of its own that the muster board
links to, which hires (the fee from the purse) and goes back to the board, refuses where the
rules refuse with why in the refused row, and is the owner's alone."""

import pytest
from django.urls import reverse

from tests.factories import WarbandFactory, mustered_warband

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


def test_the_muster_board_links_to_the_catalogue_which_hires_and_goes_back(client):
    """The board links to the catalogue's page instead of drawing it; a hire there goes back
    to the board (for htmx too), where he is on the roster and the purse paid his fee."""
    warband = WarbandFactory()
    client.force_login(warband.owner)
    muster = reverse("warband_muster", args=[warband.pk])
    catalogue = reverse("warband_hire_sword", args=[warband.pk])
    board = client.get(muster).content.decode()
    assert f'href="{catalogue}"' in board and "80 gc to hire" not in board
    page = client.get(catalogue).content.decode()
    assert "Ogre Bodyguard" in page and "80 gc to hire" in page
    gold = warband.gold_crowns
    response = client.post(catalogue, {"sword": "halfling_scout", "name": "Pip"}, headers=HTMX)
    assert response["HX-Redirect"] == muster
    assert warband.warriors.get().hired_sword.key == "halfling_scout"
    warband.refresh_from_db()
    assert warband.gold_crowns == gold - 15
    board = client.get(muster).content.decode()
    assert "Pip is hired and on the roster." in board and "Pip" in board
    response = client.post(catalogue, {"sword": "elf_ranger"})
    assert response.status_code == 302 and response["Location"] == muster


def test_a_refused_hire_is_told_in_its_row_of_the_catalogue_and_changes_nothing(client):
    """Too little gold: the catalogue again (422), the message in the refused sword's row;
    a key the catalogue has not: above the list. Nothing paid, nobody hired."""
    warband = WarbandFactory()
    warband.gold_crowns = 20
    warband.save(update_fields=["gold_crowns"])
    client.force_login(warband.owner)
    catalogue = reverse("warband_hire_sword", args=[warband.pk])
    response = client.post(catalogue, {"sword": "ogre_bodyguard"}, headers=HTMX)
    page = response.content.decode()
    assert response.status_code == 422
    row = page[page.index('value="ogre_bodyguard"') :]
    row = row[: row.index("</form>")]
    assert "gc" in row and 'role="alert"' in row, row
    response = client.post(catalogue, {"sword": "no_such_sword"}, headers=HTMX)
    assert response.status_code == 422
    assert 'data-testid="error-here"' in response.content.decode()
    assert "Choose a hired sword of the catalogue." in response.content.decode()
    warband.refresh_from_db()
    assert warband.gold_crowns == 20 and not warband.warriors.exists()


def test_the_catalogue_of_a_mustered_warband_is_its_roster(client):
    """Mustering is over: the catalogue's page sends the player to the roster (hired swords
    join in step 7 now), and a post there is refused with why."""
    warband = mustered_warband()
    client.force_login(warband.owner)
    catalogue = reverse("warband_hire_sword", args=[warband.pk])
    response = client.get(catalogue)
    assert response.status_code == 302
    assert response["Location"] == reverse("warband_roster", args=[warband.pk])
    response = client.post(catalogue, {"sword": "halfling_scout"}, headers=HTMX)
    assert response.status_code == 422 and "step 7" in response.content.decode()
    assert not warband.warriors.filter(hired_sword__isnull=False).exists()


def test_muster_hire_denied_to_a_stranger(client, django_user_model):
    warband = WarbandFactory()
    stranger = django_user_model.objects.create_user("stranger", password="x")
    client.force_login(stranger)
    response = client.post(
        reverse("warband_hire_sword", args=[warband.pk]), {"sword": "halfling_scout"}
    )
    assert response.status_code in (403, 404)
    assert not warband.warriors.exists()


def test_the_warlock_rolled_by_the_server_on_the_muster_page(client):
    warband = WarbandFactory()
    client.force_login(warband.owner)
    client.post(
        reverse("warband_hire_sword", args=[warband.pk]), {"sword": "warlock", "name": "Zed"}
    )
    zed = warband.warriors.get(name="Zed")
    assert zed.spells.count() == 2
