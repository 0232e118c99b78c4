class _Program:
    def __init__(self, text):
        self.text = text


def parse(text):
    return _Program(text)
