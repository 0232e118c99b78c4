def python_print(program, concise=False, format=True):
    return program.text
