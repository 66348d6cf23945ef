"""Makes public/fonts/NotoSansCJKjp-Regular-subset.ttf, the font for Chinese, Japanese and Korean text in
sealed PDFs (src/services/pdf/fonts.ts). Run once by hand; the result is committed, so `npm install` and
deploys need nothing of this. Needs Debian's fonts-noto-cjk and python3-fonttools:

    apt-get install fonts-noto-cjk python3-fonttools
    /usr/bin/python3 scripts/make-cjk-font.py

Noto Sans CJK (SIL Open Font License 1.1) is a CFF font; pdf-lib's fontkit writes broken subsets of
CID-keyed CFF, so the outlines are converted to TrueType (quadratic, 1 unit tolerance). Kept: CJK
punctuation, kana, Hangul jamo and syllables, the CJK Unified Ideographs block, compatibility ideographs
and full/half-width forms, ASCII, Latin-1 and general punctuation (for callers that draw a whole
string in one font); left out: Extension A and beyond (rare).
Glyphs are padded to 4 bytes: fontkit's subsetter writes a short loca table, which needs even lengths.
"""
from fontTools import subset
from fontTools.pens.cu2quPen import Cu2QuPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont, newTable

SOURCE = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
TARGET = "public/fonts/NotoSansCJKjp-Regular-subset.ttf"
UNICODES = [
    *range(0x0020, 0x007F),  # ASCII: spaces and Latin within CJK text, for callers drawing one font
    *range(0x00A0, 0x0100),  # Latin-1
    *range(0x2000, 0x2070),  # general punctuation (dashes, quotes, ellipsis)
    *range(0x1100, 0x1200),  # Hangul jamo
    *range(0x3000, 0x3100),  # CJK symbols and punctuation, hiragana, katakana
    *range(0x3130, 0x3190),  # Hangul compatibility jamo
    *range(0x31F0, 0x3200),  # katakana phonetic extensions
    *range(0x4E00, 0xA000),  # CJK Unified Ideographs
    *range(0xAC00, 0xD7A4),  # Hangul syllables
    *range(0xF900, 0xFB00),  # CJK compatibility ideographs
    *range(0xFF00, 0xFFF0),  # half-width and full-width forms
]

font = TTFont(SOURCE, fontNumber=0)  # NotoSansCJKjp-Regular
options = subset.Options()
options.layout_features = ["*"]
options.hinting = False
subsetter = subset.Subsetter(options)
subsetter.populate(unicodes=UNICODES)
subsetter.subset(font)

order = font.getGlyphOrder()
glyphs = font.getGlyphSet()
glyf = newTable("glyf")
glyf.glyphOrder = order
glyf.glyphs = {}
glyf.padding = 4
for name in order:
    pen = TTGlyphPen(glyphs)
    glyphs[name].draw(Cu2QuPen(pen, 1.0, reverse_direction=True))
    glyf[name] = pen.glyph()
font["glyf"] = glyf
font["loca"] = newTable("loca")
maxp = font["maxp"]
maxp.tableVersion = 0x00010000
for field in ("maxStorage", "maxFunctionDefs", "maxInstructionDefs", "maxStackElements", "maxSizeOfInstructions", "maxComponentElements", "maxTwilightPoints"):
    setattr(maxp, field, 0)
maxp.maxZones = 1
post = font["post"]
post.formatType = 3.0
post.extraNames = []
post.mapping = {}
del font["CFF "]
if "VORG" in font:
    del font["VORG"]
font.sfntVersion = "\x00\x01\x00\x00"
font.save(TARGET)
