"""E-mails and pushes rendered in the recipient's language, with Babel: gettext catalogs
(:mod:`.catalogs`) and the messages' text and HTML (:mod:`.render`)."""
