import json

from simdup_gui.cli import main

from tests.conftest import EN, OTHER, ZH


def test_synth_then_eval_prints_a_table_for_every_size(tmp_path, capsys):
    out = tmp_path / "corpus"
    assert main(["synth", "--generate", "12", "--seed", "3", str(out)]) == 0
    assert (out / "manifest.json").is_file()
    capsys.readouterr()
    assert main(["eval", str(out), "--synthetic", "--workers", "1", "--brief"]) == 0
    text = capsys.readouterr().out
    for bits in ("16", "32", "64", "128"):
        assert any(line.split()[:1] == [bits] for line in text.splitlines())
    assert "chance/file" in text


def test_eval_json_has_best_k_counts_and_the_rule(tmp_path, capsys):
    out = tmp_path / "corpus"
    main(["synth", "--generate", "8", str(out)])
    capsys.readouterr()
    assert main(["eval", str(out), "--bits", "32", "64", "--format", "json", "--workers",
                 "1"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [s["bits"] for s in data["sizes"]] == [32, 64]
    best = data["sizes"][1]["best"]
    assert {"tp", "fp", "fn", "precision", "recall", "f1", "chance", "distance"} <= set(best)
    assert "duplicate" in data["rule"] and data["files"] == 8 * 6


def test_synth_from_real_files_and_eval_with_reference_truth(tmp_path, capsys):
    src = tmp_path / "src"
    src.mkdir()
    (src / "zh.txt").write_bytes(ZH.encode("gb18030"))
    (src / "en.txt").write_text(EN, encoding="utf-8")
    (src / "other.txt").write_text(OTHER, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["synth", str(src), str(out), "--variants", "5", "--seed", "1"]) == 0
    assert "wrote 18 files from 3 documents" in capsys.readouterr().out
    assert main(["eval", str(out), "--reference", "jaccard:0.8", "--workers", "1",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "pairs measured exactly" in data["sampling"] and "no sampling" in data["sampling"]
    assert data["truth"] == "reference Jaccard >= 0.8"
    assert "grey zone" in data["rule"]


def test_reference_without_a_threshold_uses_the_default_similarity(tmp_path, capsys):
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text(EN, encoding="utf-8")
    (root / "b.txt").write_text(EN.replace("copy", "duplicate", 1), encoding="utf-8")
    (root / "c.txt").write_text(OTHER, encoding="utf-8")
    assert main(["eval", str(root), "--reference", "jaccard", "--bits", "64", "--workers", "1",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["truth"] == "reference Jaccard >= 0.7"
    assert data["positive_pairs"] == 1
    assert "all 3 pairs of 3 files" in data["sampling"]


def test_eval_with_a_csv_of_known_groups(tmp_path, capsys):
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text(EN, encoding="utf-8")
    (root / "b.txt").write_text(EN.replace("\n", "\r\n"), encoding="utf-8")
    (root / "c.txt").write_text(OTHER, encoding="utf-8")
    truth = tmp_path / "truth.csv"
    truth.write_text("group,path\n1,a.txt\n1,b.txt\n", encoding="utf-8")
    assert main(["eval", str(root), "--truth", str(truth), "--bits", "64", "--format", "csv",
                 "--workers", "1"]) == 0
    rows = capsys.readouterr().out.splitlines()
    assert rows[0].startswith("bits,distance,tp,fp,fn")
    k3 = next(r for r in rows[1:] if r.startswith("64,3,"))
    assert k3.split(",")[2:5] == ["1", "0", "0"]


def test_eval_errors_are_reported_with_exit_code_2(tmp_path, capsys):
    assert main(["eval", str(tmp_path / "missing")]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["eval", str(tmp_path)]) == 2
    assert "no synthetic manifest" in capsys.readouterr().err
    assert main(["eval", str(tmp_path), "--reference", "cosine:0.5"]) == 2
    assert main(["synth", str(tmp_path)]) == 2


def test_synth_labels_and_the_reference_truth_agree_pair_for_pair(tmp_path, capsys):
    """Both are the measured definition: a manifest's labels equal measuring the folder."""
    out = tmp_path / "corpus"
    assert main(["synth", "--generate", "10", "--seed", "5", str(out)]) == 0
    capsys.readouterr()
    runs = []
    for truth in ([], ["--reference", "jaccard:0.7"]):
        assert main(["eval", str(out), "--bits", "64", "--format", "json", "--workers", "1",
                     *truth]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    syn, ref = runs
    assert syn["truth"].startswith("synthetic manifest, measured")
    assert syn["positive_pairs"] == ref["positive_pairs"] > 0

    def counts(report):
        return [(s["distance"], s["tp"], s["fp"], s["fn"], s["ambiguous"])
                for s in report["sizes"][0]["scores"]]

    assert counts(syn) == counts(ref)
