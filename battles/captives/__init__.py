"""Captives (campaigns text, serious injury 61, Captured), one module per thing that can
happen to a captive: ``ransom``, ``exchange`` and ``fates`` (the slavers, a Zombie, a
sacrifice); ``holding`` reads, locks and releases them; ``permissions`` says who may act;
``views`` and ``forms`` are the warband's captives page."""
