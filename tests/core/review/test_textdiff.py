"""textdiff: line-aligned rows with the changed words (or Chinese characters) marked."""

from simdup_gui.core.review.textdiff import diff_rows, load_text


def test_equal_texts_give_equal_rows():
    rows = diff_rows("a\nb", "a\nb")
    assert [(r.tag, r.left, r.right) for r in rows] == [("equal", "a", "a"), ("equal", "b", "b")]
    assert all(not r.left_spans and not r.right_spans for r in rows)


def test_a_changed_word_is_the_only_span():
    (row,) = diff_rows("the cat sat", "the dog sat")
    assert row.tag == "replace"
    assert [row.left[s:e] for s, e in row.left_spans] == ["cat"]
    assert [row.right[s:e] for s, e in row.right_spans] == ["dog"]


def test_chinese_is_compared_character_by_character():
    (row,) = diff_rows("我们的照片", "我们的文档")
    assert [row.left[s:e] for s, e in row.left_spans] == ["照片"]
    assert [row.right[s:e] for s, e in row.right_spans] == ["文档"]


def test_a_longer_replacement_pairs_lines_then_faces_a_gap():
    rows = diff_rows("keep\ngone", "keep\nnew\nmore")
    assert [(r.tag, r.left, r.right) for r in rows] == [
        ("equal", "keep", "keep"), ("replace", "gone", "new"), ("insert", None, "more")]
    assert rows[1].left_spans == [(0, 4)] and rows[1].right_spans == [(0, 3)]
    assert rows[2].right_spans == [(0, 4)] and rows[2].left_spans == []


def test_a_pure_deletion_marks_the_whole_line():
    rows = diff_rows("a\nb\nc", "a\nc")
    (d,) = [r for r in rows if r.tag == "delete"]
    assert (d.left, d.right, d.left_spans) == ("b", None, [(0, 1)])


def test_load_text_decodes_and_names_line_endings(tmp_path):
    p = tmp_path / "f.txt"
    p.write_bytes("第一行\r\n第二行\r\n".encode("gbk"))
    t = load_text(str(p))
    assert t.text == "第一行\n第二行\n" and t.newline == "CRLF"
    assert t.encoding == "gb18030" and t.size == p.stat().st_size and not t.truncated
    p.write_bytes(b"a\nb\r\nc")
    assert load_text(str(p)).newline == "mixed"
    p.write_bytes(b"")
    t = load_text(str(p))
    assert (t.text, t.newline, t.encoding) == ("", "none", "")


def test_load_text_reads_only_the_first_part_of_a_large_file(tmp_path):
    p = tmp_path / "big.txt"
    p.write_text("x" * 5000)
    t = load_text(str(p), max_bytes=1000)
    assert t.truncated and len(t.text) == 1000 and t.size == 5000
