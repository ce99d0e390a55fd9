"""The battle's pages: ``battle`` (the battle page, reporting, confirming, correcting, random
fortune and step 0) and ``side`` (a side's warriors)."""
