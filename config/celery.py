"""The Celery application; start a worker with ``celery -A config worker``.

Settings come from Django's settings module under the ``CELERY_`` prefix
(broker, time limits, acks_late…), see config/settings.py.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Every task queues after the commit of the transaction that sends it (core.tasks).
app = Celery("adaptoid", task_cls="core.tasks:AfterCommitTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
