import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

try:
    from hypothesis import HealthCheck, settings
except ImportError:  # the hypothesis suites skip themselves, with the reason
    pass
else:
    # "gpusort": the default, sized so the suites take well under a minute on
    # two CPU cores; "thorough": many more cases, for a GPU machine or a soak.
    # No example database: the runs leave no files behind.
    settings.register_profile("gpusort", max_examples=60, deadline=None, database=None, derandomize=True,
                              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    settings.register_profile("thorough", max_examples=500, deadline=None, database=None,
                              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    settings.load_profile(os.environ.get("GPUSORT_HYPOTHESIS_PROFILE", "gpusort"))

def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long GPU runs, run by default (deselect with -m 'not slow')")
