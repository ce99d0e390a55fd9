"""Battles: four features (``report``, ``helper``, ``captives``, ``aftermath``) beside what
they share (``models``, the pure ``rules``, the dice log in ``dice``, who may act in
``permissions`` and the battle's own fields in ``forms``). pyproject.toml's contracts say
which services one feature may use of another (README, layout)."""
