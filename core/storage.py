"""Static files storage: whitenoise's compressed, hashed names in production."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    """Hashed file names once `collectstatic` has written the manifest, plain names before.

    Development and the test suite run without `collectstatic`; the dev server and pytest's
    live server find the files through Django's finders, so a plain name is the right URL there.
    """

    manifest_strict = False

    def stored_name(self, name: str) -> str:
        if not self.hashed_files:
            return name
        return super().stored_name(name)
