"""python-dotenv stand-in: task code calls load_dotenv() for AWS keys the sandbox's lake does not need."""


def load_dotenv(*args, **kwargs):
    return False


def dotenv_values(*args, **kwargs):
    return {}


def find_dotenv(*args, **kwargs):
    return ""
