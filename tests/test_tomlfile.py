"""The four config readers share one TOML file reader (controller/tomlfile.py): a missing
file, a directory, binary bytes and bad TOML fail the same way in each, as its own error
type, one line naming the file."""

import pytest

from controller.daemon.config import ConfigError, load as load_net
from controller.emulate.config import EmuConfigError, load as load_emu
from controller.p4gen.profile import ProfileError, load as load_profile
from controller.tofino2.settings import SettingsError, load as load_portmap

READERS = [(load_net, ConfigError), (load_profile, ProfileError), (load_portmap, SettingsError),
           (load_emu, EmuConfigError)]

BAD = [
    ("missing", lambda f: None, r"x\.toml: not found$"),
    ("directory", lambda f: f.mkdir(), r"x\.toml: is a directory, not a TOML file$"),
    ("not UTF-8", lambda f: f.write_bytes(b'name = "\xff\xfe"\n'), r"x\.toml: not a text file \(byte 8 is not UTF-8\)"),
    ("bad TOML", lambda f: f.write_text("name = [\n"), r"x\.toml: not valid TOML: "),
]


@pytest.mark.parametrize("reader,error", READERS, ids=["net.toml", "profile", "port map", "emulate"])
@pytest.mark.parametrize("what,make,message", BAD, ids=[b[0] for b in BAD])
def test_every_reader_fails_the_same_way(tmp_path, reader, error, what, make, message):
    f = tmp_path / "x.toml"
    make(f)
    with pytest.raises(error, match=message) as e:
        reader(f)
    assert "\n" not in str(e.value)
