def make_roundtrip_instrument():
    return None
