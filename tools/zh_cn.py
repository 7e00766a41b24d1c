"""Simplified Chinese for the interface (source text -> translation)."""

ZH = {
    "Name": "名称", "Folder": "文件夹", "Size": "大小", "Modified": "修改时间", "Encoding": "编码",
    "Distance": "距离", "Similarity": "相似度", "exact text": "文字完全相同",
    "near-duplicates": "近似重复", "Group {0}: {1} files, {2}": "第 {0} 组：{1} 个文件，{2}",
    "Representative of the group": "本组的代表文件",
    "Short text: few words, so the fingerprint is less reliable": "文本很短：词语少，指纹不太可靠",
    "Reference": "参照文件", "Selected file": "所选文件",
    "Select a file in a group to compare its fingerprint with the group's reference.":
        "在组中选择一个文件，将它的指纹与本组的参照文件比较。",
    "Text similarity at least": "文本相似度至少", "Verify": "核实方式",
    "Candidate distance k": "候选距离 k",
    "text similarity (recommended)": "文本相似度（推荐）",
    "SimHash only (for comparison)": "仅 SimHash（用于比较）",
    "k={0} of {1} bits proposes candidates; their text decides":
        "k={0}（共 {1} 位）提出候选，由文本决定",
    "k={0} of {1} bits: files within k are grouped, unchecked":
        "k={0}（共 {1} 位）：距离在 k 以内即归为一组，不核实",
    "too short": "太短",
    "With SimHash only: linked joins files by any chain of near pairs; strict keeps every pair "
    "in a group within k": "仅 SimHash 时：链式把由近邻对连成链的文件归为一组；严格要求组内每对都在 k 以内",
    "The fingerprint size and distance k only propose candidate pairs. With text similarity, "
    "each candidate is checked: a file joins a group when its text (5-gram Jaccard of the "
    "normalised text) is at least the threshold similar to the group's reference (★). SimHash "
    "only groups by fingerprint distance alone.":
        "指纹位数和距离 k 只提出候选文件对。选择文本相似度时，每个候选都会核实：文件的文本（规范化文本的"
        "5 字片段 Jaccard）与本组参照文件（★）的相似度达到阈值时才加入该组。仅 SimHash 只按指纹距离分组。",
    "Reference of the group: every member is compared with it":
        "本组的参照文件：每个成员都与它比较",
    "measured from both files": "由两个文件实测", "estimated from sketches": "由草图估计",
    "Text similarity to the reference: {0:.1%} ({1})": "与参照文件的文本相似度：{0:.1%}（{1}）",
    "Too short to compare (five characters or fewer): grouped only with the same text":
        "太短，无法比较（不超过五个字符）：只与相同文本归为一组",
    "within k={0}: a candidate pair": "在 k={0} 以内：候选文件对",
    "beyond k={0}: not proposed by SimHash": "超过 k={0}：SimHash 不会提出",
    "Hamming distance {0} of {1} bits, {2:.1%} of bits equal ({3}). Differing bits are red. The "
    "index splits the {1} bits into {4} blocks (blue lines); {5} of them match exactly (shaded): "
    "by the pigeonhole principle a pair within k differs in at most k blocks, so it shares at "
    "least {6} and the index finds it.":
        "海明距离 {0}（共 {1} 位），{2:.1%} 的位相同（{3}）。不同的位标为红色。索引把 {1} 位分成 {4} "
        "块（蓝线）；其中 {5} 块完全相同（加深）：根据抽屉原理，距离不超过 k 的两个指纹最多有 k "
        "块不同，因此至少有 {6}，索引一定能找到它们。",
    "Select a file": "请选择文件",
    "simdup: near-duplicate text files": "simdup：近似重复的文本文件",
    "Folders to scan (drop folders here)": "要扫描的文件夹（可把文件夹拖到这里）",
    "Add folder…": "添加文件夹…", "Remove": "移除", "Settings": "设置",
    "Fingerprint size (bits)": "指纹位数", "Maximum distance k": "最大距离 k",
    "Similarity": "相似度", "Features": "特征", "Grouping": "分组方式",
    "Include patterns": "包含模式", "Exclude patterns": "排除模式", "Minimum size": "最小大小",
    "e.g. *.txt *.md (empty: all text files)": "如 *.txt *.md（留空：所有文本文件）",
    "e.g. *.log build": "如 *.log 备份",
    "shingles: words and word pairs, TF-IDF weighted (best measured accuracy); tokens: words "
    "only; topk: the seeds' top-K keywords":
        "词语与词对：词语和相邻词对，TF-IDF 加权（实测准确率最高）；词语：只用词语；"
        "关键词：原文的前 K 个关键词",
    "linked: files joined by any chain of near pairs; strict: every pair in a group within k":
        "linked：由相近文件链连成一组；strict：组内每两个文件的距离都不超过 k",
    "Scan": "扫描", "Cancel": "取消", "Filter by name or folder": "按名称或文件夹筛选",
    "Expand all": "全部展开", "Collapse all": "全部折叠", "Duplicates": "重复文件",
    "Problems ({0})": "问题（{0}）", "Accuracy lab": "准确率实验", "&File": "文件(&F)",
    "Quit": "退出", "&Language": "语言(&L)", "&Help": "帮助(&H)", "About simdup": "关于 simdup",
    "Ready.": "就绪。", "k={0} of {1} bits = {2:.0%} of bits equal": "k={0}（共 {1} 位）= {2:.0%} 的位相同",
    "Add a folder to scan": "添加要扫描的文件夹", "Nothing to scan": "没有可扫描的内容",
    "Add at least one folder first.": "请先至少添加一个文件夹。", "Listing files…": "正在列出文件…",
    "Cancel the scan?": "取消扫描？",
    "The scan has run for a while. Cancel it? Files fingerprinted so far are kept and grouped.":
        "扫描已经进行了一段时间。要取消吗？已经计算指纹的文件会保留并分组。",
    "Cancelling…": "正在取消…", "Listing files: {0} found\n{1}": "正在列出文件：已找到 {0} 个\n{1}",
    "{0} of {1} files, {2:.1f} MB/s, elapsed {3}, remaining {4}\n{5}":
        "{0} / {1} 个文件，{2:.1f} MB/s，已用 {3}，剩余 {4}\n{5}",
    "Cancelled, partial results: {0} files fingerprinted before the cancel are shown; scan "
    "again for all of them.": "已取消，结果不完整：显示取消前已计算指纹的 {0} 个文件；重新扫描可得到全部结果。",
    "Cancelled: the previous results are kept as they were ({0} groups, {1} marked); nothing "
    "of the cancelled scan replaced them.": "已取消：之前的结果保持不变（{0} 组，已标记 {1} 个）；取消的扫描没有替换它们。",
    "The scan has run for a while. Cancel it? The results shown now stay as they are; a first "
    "scan shows the files fingerprinted so far.": "扫描已经进行了一段时间。要取消吗？当前显示的结果保持不变；首次扫描会显示已经计算指纹的文件。",
    "Preparing the fast code, once after an install (about a minute); later scans start at "
    "once…": "正在准备快速代码，安装后只需一次（约一分钟）；之后的扫描会立即开始…",
    "{0} is not used: {1}": "未使用 {0}：{1}",
    "Keep documents made from one template apart": "区分由同一模板生成的不同文档",
    "Man pages of one generator, or one licence notice in many projects, share most of their "
    "text without being copies of each other: when ticked, a pair whose shared text is found "
    "in many other documents is not grouped. Copies are.":
        "同一工具生成的手册页，或许多项目中的同一份许可声明，大部分文字相同，却并非彼此的副本："
        "勾选后，如果两份文件共有的文字也出现在许多其他文档中，就不把它们分为一组。真正的副本仍会分组。",
    "Scanned {0} files in {1}.": "扫描了 {0} 个文件，用时 {1}。", "The scan failed.": "扫描失败。",
    "Scan failed": "扫描失败",
    "{0} groups, {1} files in groups, {2} marked ({3}); {4} files scanned, {5} problems":
        "{0} 组，组内 {1} 个文件，已标记 {2} 个（{3}）；共扫描 {4} 个文件，{5} 个问题",
    "Open": "打开", "Reveal in folder": "在文件夹中显示", "Copy path": "复制路径",
    "simdup finds near-duplicate text files with SimHash fingerprints: re-encoded, re-wrapped or "
    "lightly edited copies that byte-hash tools miss.\n\nIndex: {0}":
        "simdup 用 SimHash 指纹查找近似重复的文本文件：换了编码、换了排版或略有修改的副本，"
        "按字节比较的工具找不到它们。\n\n索引：{0}",
    "Kind": "类型", "Reason": "原因", "Path": "路径",
    "Load more of both files": "加载两个文件的更多内容",
    "Select a file to compare it with the reference.": "选择一个文件，与参照文件比较。",
    "cannot read: {0}": "无法读取：{0}", "{0}, line endings {1}, {2}": "{0}，换行符 {1}，{2}",
    " (first part shown)": "（只显示开头部分）",
}

ZH.update({
    "&Mark": "标记(&M)", "&Actions": "操作(&A)",
    "Mark all but one in each group, keeping the…": "每组只保留一个，其余全部标记，保留…",
    "oldest file": "最早的文件", "newest file": "最新的文件", "largest file": "最大的文件",
    "smallest file": "最小的文件", "shortest path": "路径最短的文件", "longest path": "路径最长的文件",
    "copy in a preferred encoding…": "指定编码的副本…", "copy under a preferred folder…": "指定文件夹中的副本…",
    "Mark selected": "标记所选", "Unmark selected": "取消标记所选", "Invert marks": "反选标记",
    "Clear marks": "清除标记", "Reference folders (never marked)…": "参考文件夹（从不标记）…",
    "Dry run: list what would happen, touch nothing": "演练：只列出将要发生的操作，不改动任何文件",
    "Move marked files to…": "把标记的文件移动到…", "Send marked files to the trash": "把标记的文件移到回收站",
    "Delete marked files permanently…": "永久删除标记的文件…", "Undo the last action": "撤销上一次操作",
    "Save results…": "保存结果…", "Load results…": "载入结果…", "Export groups as": "导出分组为",
    "bits": "位数", "k": "k", "precision": "精确率", "recall": "召回率", "F1": "F1",
    "TP": "正确检出", "FP": "误报", "FN": "漏报", "chance/file": "随机匹配/文件",
    "Folder of labelled text files": "带标注的文本文件夹", "Browse…": "浏览…",
    "Synthetic manifest (manifest.json)": "合成语料清单（manifest.json）",
    "CSV of known duplicates": "已知重复文件的 CSV", "Reference: exact Jaccard ≥ threshold":
        "参照：精确 Jaccard ≥ 阈值", "Generate a synthetic corpus": "生成合成语料",
    "CSV: group,path or path_a,path_b,label": "CSV：group,path 或 path_a,path_b,label",
    "CSV…": "CSV…", "Jaccard ≥ ": "Jaccard ≥ ", " documents": " 篇文档", "Run": "运行",
    "Choose a corpus and its truth, then press Run.": "选择语料和标注来源，然后点击“运行”。",
    "Corpus:": "语料：", "Truth:": "标注：", "Features:": "特征：",
    "{0} bits: P, R, F1 and chance matches against k": "{0} 位：P、R、F1 与随机匹配随 k 的变化",
    "Best F1 per fingerprint size": "各指纹位数的最佳 F1",
    "Precision-recall curves (one point per k)": "精确率-召回率曲线（每个 k 一个点）",
    "Export CSV…": "导出 CSV…", "Export PNG…": "导出 PNG…",
    "Per-size charts: <b style='color:{0}'>precision</b>, <b style='color:{1}'>recall</b>, "
    "<b style='color:{2}'>F1</b> (left axis); <b style='color:{3}'>dashed: chance matches "
    "per file</b> (right axis, log scale); <b style='color:{4}'>dotted: one random match per "
    "file</b>. A red-tinted chart or row means random fingerprints already match more than once "
    "per file.":
        "各位数的图：<b style='color:{0}'>精确率</b>、<b style='color:{1}'>召回率</b>、"
        "<b style='color:{2}'>F1</b>（左轴）；<b style='color:{3}'>虚线：每个文件的随机匹配数"
        "</b>（右轴，对数刻度）；<b style='color:{4}'>点线：每个文件一次随机匹配</b>。偏红的图或行"
        "表示随机指纹平均已经匹配不止一次。",
    "Corpus folder": "语料文件夹", "Known duplicates": "已知的重复文件", "CSV files (*.csv)": "CSV 文件 (*.csv)",
    "An evaluation is already running": "已有评估在运行", "Not a folder: {0}": "不是文件夹：{0}",
    "Running…": "运行中…", "Generating the corpus": "正在生成语料", "Listing files": "正在列出文件",
    "Fingerprinting": "正在计算指纹", "Reading texts for the reference": "正在读取文本作为参照",
    "Measuring reference similarity": "正在计算参照相似度", "Scoring every size and k": "正在评估每种位数和 k",
    "{0}: {1} of {2}": "{0}：{1} / {2}", "Failed: {0}": "失败：{0}", "Cancelled.": "已取消。",
    "{0} files, truth: {1}; {2} duplicate pairs. {3}": "{0} 个文件，标注：{1}；{2} 对重复。{3}",
    "{0} bits: best F1 {1:.2f} at k={2}, {3} random matches per file":
        "{0} 位：k={2} 时最佳 F1 为 {1:.2f}，每个文件 {3} 次随机匹配",
    "Loading {0}…": "正在载入 {0}…",
    "Grouping {0} files: finding candidate pairs…": "正在分组 {0} 个文件：查找候选文件对…",
    "Grouping: {0} of {1} pairs near the threshold measured from the files, remaining {2}":
        "正在分组：已从文件实测 {0}/{1} 对接近阈值的文件，剩余 {2}",
    "Grouping: making groups from {0} verified pairs…": "正在分组：用 {0} 对已验证的文件组成分组…",
    " (verified groups: F1 {0:.2f} at k={1})": "（验证后的分组：k={1} 时 F1 为 {0:.2f}）",
    "SimHash only": "仅用 SimHash",
    "verified": "验证后",
    ". Red-tinted rows: more chance matches than one per file, so small fingerprints drown in "
    "coincidences.": "。偏红的行：每个文件的随机匹配超过一次，位数少的指纹被巧合淹没。",
    "k (max Hamming distance)": "k（最大海明距离）", "chance matches/file": "随机匹配/文件",
    "chance matches/file (log)": "随机匹配/文件（对数）", "1 random match/file": "每文件 1 次随机匹配",
    "best F1": "最佳 F1", "{0} bits": "{0} 位", "Nothing to export yet": "还没有可导出的内容",
    "Export CSV": "导出 CSV", "Export PNG": "导出 PNG", "PNG images (*.png)": "PNG 图片 (*.png)",
    "Could not write {0}": "无法写入 {0}", "Preferred encoding": "首选编码",
    "Keep the copy in this encoding:": "保留此编码的副本：",
    "Keep the copies under this folder": "保留此文件夹中的副本", "Reference folders": "参考文件夹",
    "Files under these folders are never marked (one folder per line):":
        "这些文件夹中的文件永远不会被标记（每行一个文件夹）：",
    "Move marked files to": "把标记的文件移动到", "Keep folder structure?": "保留文件夹结构？",
    "Keep each file's folders relative to its scan root? (No: put all files directly in the "
    "destination; name clashes get a unique name.)":
        "保留每个文件相对于扫描根目录的文件夹结构吗？（否：所有文件直接放入目标文件夹，重名时自动改用不重复的名称。）",
    "Refused": "已拒绝", "Nothing marked": "没有标记的文件", "Mark the copies to act on first.":
        "请先标记要处理的副本。",
    "Delete {0} files ({1}) permanently? This cannot be undone.": "永久删除 {0} 个文件（{1}）？此操作无法撤销。",
    "Send {0} files ({1}) to the trash?": "把 {0} 个文件（{1}）移到回收站？",
    "Move {0} files ({1}) to {2}?": "把 {0} 个文件（{1}）移动到 {2}？", "Confirm": "确认",
    "Action failed": "操作失败", "Save results": "保存结果", "Load results": "载入结果",
    "Cannot load": "无法载入", "Export groups": "导出分组", "What happened": "操作结果",
    "Journal: {0}": "操作日志：{0}", "Nothing to do.": "没有需要处理的内容。",
})

ZH.update({"Same normalised text as the reference": "规范化后的文字与参照文件完全相同"})

ZH.update({
    "Resume an interrupted action from its journal…": "从操作日志继续被中断的操作…",
    "Roll back an action from its journal…": "从操作日志回滚一次操作…",
    "Clear the fingerprint cache": "清除指纹缓存", "Journals (*.jsonl)": "操作日志 (*.jsonl)",
    "Resume which action?": "继续哪一次操作？", "Roll back which action?": "回滚哪一次操作？",
    "Cleared {0} cached fingerprints.": "已清除 {0} 条缓存的指纹。",
})

ZH.update({"Grouping {0} files…": "正在对 {0} 个文件分组…"})

ZH.update({"Cannot save": "无法保存", "Saved {0}": "已保存 {0}"})

# issue 13: rough edges (settings, dialogs, undo, lab, languages) and issue 11 (Dask)
ZH.update({
    "synthetic manifest, measured J ≥ {0}": "合成清单，实测 J ≥ {0}",
    "synthetic manifest": "合成清单",
    "reference: exact Jaccard ≥ {0}": "参照：精确 Jaccard ≥ {0}",
    "CSV groups ({0})": "CSV 分组（{0}）", "CSV pairs ({0})": "CSV 文件对（{0}）",
    "Exact, no sampling: all {0} pairs of {1} files, {2} measured.":
        "精确计算，未抽样：{1} 个文件的全部 {0} 对，实测 {2} 对。",
    "Exported {0} groups to {1}": "已将 {0} 组导出到 {1}",
    "Saved the results to {0}": "结果已保存到 {0}",
    "Writing {0}…": "正在写入 {0}…",
    "Still writing the last file…": "上一个文件仍在写入…",
    "Folder layout in {0}": "{0} 中的文件夹结构",
    "Keep each file's folders below its scan root, or put every file directly in {0} (a name "
    "that clashes gets a unique name)?":
        "保留每个文件在扫描根目录下的文件夹结构，还是把所有文件直接放进 {0}（重名的文件会得到唯一的名称）？",
    "Keep folder structure": "保留文件夹结构", "Put all files in one folder": "全部放进同一个文件夹",
    "Delete {0} files": "删除 {0} 个文件", "Send {0} files to the trash": "把 {0} 个文件移到回收站",
    "Move {0} files": "移动 {0} 个文件",
    "Cannot undo now: wait for the scan or action under way to finish.":
        "现在无法撤销：请等待正在进行的扫描或操作完成。",
    "Undoing the last action…": "正在撤销上一次操作…",
    "Cannot clear the cache": "无法清空缓存",
    "Cannot load the {0} translation, so the interface stays in English: {1}":
        "无法加载{0}翻译，界面保持英文：{1}",
    "Check the settings": "请检查设置",
    "they are grouped as duplicates": "它们会被归为重复",
    "text similarity rejects them, but each costs time": "文本相似度会排除它们，但每个都要花时间",
    "⚠ At {0} bits and k={1}, each of {2} files lies within k of about {3} unrelated files by "
    "chance: {4}. Choose a larger fingerprint size or a smaller k.":
        "⚠ {0} 位、k={1} 时，{2} 个文件中的每一个都会偶然与大约 {3} 个无关文件的距离在 k 以内：{4}。"
        "请选择更大的指纹位数或更小的 k。",
    'symbolic link not followed: tick "Follow symbolic links" in Settings and scan again to '
    "include it": "未跟随符号链接：在“设置”中勾选“跟随符号链接”并重新扫描即可包含它",
    'larger than the maximum size ({0}): raise "Maximum size" in Settings to include it':
        "大于最大大小（{0}）：在“设置”中调高“最大大小”即可包含它",
    'smaller than the minimum size ({0}): lower "Minimum size" in Settings to include it':
        "小于最小大小（{0}）：在“设置”中调低“最小大小”即可包含它",
    "Move": "移动", "Trash": "移到回收站", "Delete": "删除", "Undo": "撤销",
    "{0} done": "{0} 个完成", "{0} skipped": "{0} 个跳过", "{0} failed": "{0} 个失败",
    "{0} planned": "{0} 个计划中", "{0} put back": "{0} 个已放回", "nothing to do": "无事可做",
    "dry run, nothing touched: {0}": "演练，未改动任何文件：{0}", "{0}: {1}": "{0}：{1}",
    "; cancelled": "；已取消", "; stopped: {0}": "；已停止：{0}",
    "Maximum size": "最大大小", "Dask scheduler": "Dask 调度器", "no limit": "不限",
    "Larger files are skipped and listed under Problems.": "更大的文件会被跳过，并列在“问题”中。",
    "Follow symbolic links": "跟随符号链接",
    "Scan the files and folders that symbolic links point to (each file once). Unticked, links "
    "are listed under Problems.":
        "扫描符号链接指向的文件和文件夹（每个文件只扫描一次）。不勾选时，链接列在“问题”中。",
    "empty: this machine": "留空：本机",
    "Fingerprint on a Dask cluster: local:N starts N workers here, tcp://host:8786 uses a "
    "running scheduler (every worker must see the folders at the same path). Empty: this "
    'machine\'s cores. Needs pip install "simdup[dask]".':
        "在 Dask 集群上计算指纹：local:N 在本机启动 N 个工作进程，tcp://host:8786 使用正在运行的调度器"
        "（每个工作进程都必须在相同路径下看到这些文件夹）。留空：使用本机的处理器核心。"
        '需要 pip install "simdup[dask]"。',
    'The maximum size is below the minimum size: raise "Maximum size" or lower "Minimum size" '
    "in Settings.": "最大大小低于最小大小：请在“设置”中调高“最大大小”或调低“最小大小”。",
    '"Dask scheduler" in Settings must be empty (this machine), local:N (N workers here) or an '
    'address such as tcp://host:8786, not "{0}".':
        "“设置”中的“Dask 调度器”必须留空（本机）、为 local:N（本机 N 个工作进程）或 tcp://host:8786 "
        "这样的地址，而不是“{0}”。",
})

# Replace with links (issue 13, item 12)
ZH.update({
    "Replace marked files with hard links to the kept copy": "把标记的文件替换为指向保留副本的硬链接",
    "Replace marked files with symbolic links to the kept copy": "把标记的文件替换为指向保留副本的符号链接",
    "Replace {0} files ({1}) with links to their kept copy? Only exact (byte-identical) copies "
    "are replaced; near duplicates are skipped. Undo puts the originals back.":
        "把 {0} 个文件（{1}）替换为指向其保留副本的链接？只替换完全相同（逐字节一致）的副本，"
        "近似重复的文件会被跳过。撤销可以放回原文件。",
    "Replace {0} files": "替换 {0} 个文件",
})

# Ignore list, views, keys (issue 13, items 10, 11, 13)
ZH.update({
    "Δ Size": "Δ 大小", "Δ Modified": "Δ 修改时间",
    "{0} groups": "{0} 组", "{0} of {1} groups shown": "显示 {0} / {1} 组",
    "{0} marked, {1} to reclaim": "已标记 {0} 个，可腾出 {1}",
    "Ignore list": "忽略列表", "Remove selected": "移除所选", "Clear all": "全部清除",
    "file: {0}": "文件：{0}", "pair: {0}  ↔  {1}": "文件对：{0}  ↔  {1}",
    "{0} files and {1} pairs are never shown as duplicates. Kept in {2}":
        "{0} 个文件和 {1} 个文件对不再显示为重复。保存在 {2}",
    "Cannot change the ignore list": "无法修改忽略列表",
    "Mark by name": "按名称标记",
    "Mark the files whose name matches (a pattern such as *.bak or *副本*; any case):":
        "标记名称匹配的文件（模式如 *.bak 或 *副本*；不区分大小写）：",
    "Regular expression": "正则表达式",
    "&View": "视图(&V)",
    "Duplicates only (hide each group's reference)": "只显示重复文件（隐藏每组的参照文件）",
    "Size and date against the reference": "与参照文件比较大小和日期",
    "Ignore list…": "忽略列表…",
    "Not duplicates of the reference: ignore these pairs in every scan":
        "不是参照文件的重复：以后每次扫描都忽略这些文件对",
    "Ignore the selected files in every scan": "以后每次扫描都忽略所选文件",
    "Remove the selected files from the results (this session)": "从结果中移除所选文件（仅本次）",
    "Mark files whose name matches…": "标记名称匹配的文件…",
    "Toggle the marks of the selected files": "切换所选文件的标记",
    "Open": "打开",
    "Select one or more files first.": "请先选择一个或多个文件。",
    "Cannot mark by name": "无法按名称标记",
})

# Recent folders and results (issue 13, item 14)
ZH.update({
    "Recent folders": "最近的文件夹", "Recent results": "最近的结果", "(none yet)": "（暂无）",
})

# simdup release: free the originals a link action holds (Actions menu)
ZH.update({
    "Release held originals…": "释放保留的原件…",
    "Free the space of the originals that replacing files with links holds for undo, where "
    "the kept copy still has their bytes":
        "释放“替换为链接”为撤销而保留的原件所占的空间（仅限保留的副本仍有相同字节的原件）",
    "Cannot release now: wait for the scan or action under way to finish.":
        "现在无法释放：请等待正在进行的扫描或操作完成。",
    "Checking the held originals…": "正在检查保留的原件…",
    "Release held originals": "释放保留的原件",
    "Delete {0} held originals ({1})? Each was replaced by a link, and its kept copy has the "
    "same bytes now. Undo can then no longer put these originals back; the links stay.":
        "删除 {0} 个保留的原件（{1}）？每个原件都已被替换为链接，且保留的副本现在具有相同的字节。"
        "此后撤销将无法放回这些原件；链接会保留。",
    "Release {0} originals": "释放 {0} 个原件", "Nothing released.": "没有释放任何文件。",
    "{0} released": "{0} 个已释放", "{0} to release": "{0} 个待释放",
    "; would free {0}": "；将释放 {0}", "; {0} freed": "；已释放 {0}",
    # issue 37: template siblings and closest members
    "Closest": "最相近",
    "{0} share mostly template text": "{0} 个主要是模板文字",
    "template": "模板",
    "Closest member: {0} ({1:.1%})": "最相近的成员：{0}（{1:.1%}）",
    "Most of the text it shares with the reference is a template found in {0} other documents "
    "(pages of one generator, one licence in many projects): maybe not a copy. Keep rules leave "
    "it unmarked unless you say otherwise.":
        "它与参照文件共有的文字大多是模板，另有 {0} 个文档也含有（同一生成器的手册页、许多项目共用的许可证）："
        "它可能不是副本。除非你同意，保留规则不会标记它。",
    "Template text": "模板文字",
    "{0} files in {1} groups share mostly template text with their group's reference: text "
    "found in many other files, like man pages of one generator or one licence in many "
    "projects. They may not be copies.\n\nLeave them unmarked (each keeps its own copies "
    "apart), or mark them like the others?":
        "{1} 个组中有 {0} 个文件与本组参照文件共有的文字大多是模板：许多其他文件里也有这些文字，"
        "例如同一生成器的手册页、许多项目共用的许可证。它们可能不是副本。\n\n"
        "不标记它们（各自的副本仍会分别处理），还是像其他文件一样标记？",
    "Leave them unmarked": "不标记它们", "Mark them too": "也标记它们",
    # issue 38, item 8 (Chinese UI: the mode names, Qt's picker, the action report's words,
    # the engine's reasons and index plan as the app shows them)
    "shingles": "词语与词对", "tokens": "词语", "topk": "关键词", "linked": "链式", "strict": "严格",
    "&Look in:": "查找范围(&L)：", "Files of &type:": "文件类型(&T)：",
    "Replace with hard links": "替换为硬链接", "Replace with symbolic links": "替换为符号链接",
    "Copy": "复制", "Rename": "重命名",
    "done": "完成", "skipped": "跳过", "failed": "失败", "planned": "计划",
    "What happened: {0}": "操作结果：{0}", "; ": "；",
    "would become a hard link to {0}": "将成为指向 {0} 的硬链接",
    "would become a symbolic link to {0}": "将成为指向 {0} 的符号链接",
    "now a hard link to {0}": "现在是指向 {0} 的硬链接",
    "now a symbolic link to {0}": "现在是指向 {0} 的符号链接",
    "the original is held in {0} for undo": "原件保留在 {0}，以便撤销",
    "the original is held in {0} for undo (copied: another file system)":
        "原件保留在 {0}，以便撤销（已复制：另一个文件系统）",
    "has {0} other hard link(s)": "另有 {0} 个硬链接", "no space is freed": "不会释放空间",
    "copied across file systems, verified, original removed": "已跨文件系统复制并核实，原件已删除",
    "undo cannot restore it on this platform: restore it from the system trash":
        "在此平台上撤销无法恢复它：请从系统回收站中还原",
    "cancelled before this file": "处理此文件之前已取消",
    "not byte-identical to any kept copy (a near duplicate): a link would lose its "
    "differences, so only exact copies are replaced by links":
        "与任何保留的副本都不是逐字节相同（近似重复）：链接会丢失它的差异，所以只有完全相同的副本才会被替换为链接",
    "not touched": "未改动",
    "another simdup is acting on it or on its kept copy right now (another window, user or "
    "machine)": "另一个 simdup 正在处理它或它的保留副本（另一个窗口、用户或机器）",
    "not touched, so the two never take both copies": "未改动，以免两者把两个副本都删掉",
    "no unchanged kept copy remains ({0})": "没有仍未改变的保留副本（{0}）",
    "no unchanged byte-identical kept copy remains ({0})": "没有仍未改变且逐字节相同的保留副本（{0}）",
    "is the file to remove itself": "就是要移除的文件本身",
    "its kept copy {0} changed just now": "它的保留副本 {0} 刚刚被改动",
    "no longer exists": "已不存在", "is now a symbolic link": "现在是符号链接",
    "is no longer a regular file": "已不是普通文件",
    "size changed since the scan ({0} -> {1} bytes)": "扫描后大小已改变（{0} -> {1} 字节）",
    "modified since the scan (modification time differs)": "扫描后已修改（修改时间不同）",
    "content changed since the scan (hash differs)": "扫描后内容已改变（哈希不同）",
    "already back (an earlier undo was cut off)": "已经放回（之前的撤销被中断）",
    "finished an undo that was cut off": "完成了一次被中断的撤销",
    "restored, but its content had changed since the action": "已恢复，但它的内容在操作后被改动过",
    "deleted permanently": "已永久删除", "cannot be restored": "无法恢复",
    "finished from the journal after an interruption": "中断后根据操作日志完成",
    "block index: {0} blocks, {1} tables keyed on {2} bits, {3} candidates, {4} pairs":
        "分块索引：{0} 个块，{1} 张以 {2} 位为键的表，{3} 个候选，{4} 对",
    "multi-probe block index: {0} blocks, each pair has a block within {1} bits":
        "多探测分块索引：{0} 个块，每对至少有一个块相差不超过 {1} 位",
    "{0} bucket look-ups per fingerprint, {1} candidates, {2} pairs":
        "每个指纹查找 {0} 个桶，{1} 个候选，{2} 对",
    "vectorised scan of {0} fingerprints ({1}), {2} pairs": "向量化扫描 {0} 个指纹（{1}），{2} 对",
    "exact matches only (k=0), {0} distinct fingerprints": "只找完全相同的指纹（k=0），{0} 个不同的指纹",
    "few fingerprints: a scan is cheapest": "指纹少，扫描最省时",
    "k={0} is too large at {1} bits for blocks to beat a scan": "{1} 位时 k={0} 太大，分块索引不如扫描",
    "forced": "指定",
    "short texts by their sketches: {0} pairs, {1} new": "短文本按草图比较：{0} 对，新增 {1} 对",
    "{0} candidate pairs, {1} verified at the threshold ({2} measured from the files, {3} "
    "from sketches)": "{0} 个候选对，{1} 对达到阈值（{2} 对由文件实测，{3} 对由草图估计）",
    "{0} pairs kept apart (a shared template)": "{0} 对被分开（共用模板）",
    "{0} pairs flagged (a shared template)": "{0} 对已标注（共用模板）",
    "SimHash k={0} ({1}) plus sketch LSH ({2} bands of {3}) within k={4}: {5} + {6} candidate "
    "pairs, {7} distinct":
        "SimHash k={0}（{1}）加上草图 LSH（{2} 个带，每带 {3} 行），k={4} 以内：{5} + {6} 个候选对，"
        "其中 {7} 个不同",
    "SimHash k={0} ({1}) plus sketch LSH on the Dask cluster ({2} bands of {3}) within k={4}: "
    "{5} + {6} candidate pairs, {7} distinct":
        "SimHash k={0}（{1}）加上在 Dask 集群上的草图 LSH（{2} 个带，每带 {3} 行），k={4} 以内："
        "{5} + {6} 个候选对，其中 {7} 个不同",
    "candidate distance lowered from {0} to {1}: at k={0} about {2} pairs of these files "
    "would be candidates (more than {3})":
        "候选距离从 {0} 降到 {1}：k={0} 时这些文件约有 {2} 对会成为候选（超过 {3}）",
    "empty file (0 bytes)": "空文件（0 字节）", "empty file": "空文件", "not fingerprinted": "未计算指纹",
    "binary content (NUL bytes)": "二进制内容（含空字节）",
    "binary content (control bytes)": "二进制内容（含控制字节）",
    "binary content ({0} NUL bytes after the first {1} bytes)":
        "二进制内容（前 {1} 字节之后有 {0} 个空字节）",
    "binary or unknown encoding ({0} undecodable characters, best guess {1})":
        "二进制或未知编码（{0} 个字符无法解码，最接近的猜测是 {1}）",
    "no words to fingerprint (only spaces or punctuation)": "没有可计算指纹的词语（只有空白或标点）",
    "permission denied": "没有权限", "vanished during the scan": "扫描期间消失了",
    "broken symbolic link": "损坏的符号链接", "symbolic link loop": "符号链接循环",
    "cannot open: {0}": "无法打开：{0}", "read error: {0}": "读取出错：{0}",
    "cannot stat: {0}": "无法获取文件信息：{0}", "cannot list folder: {0}": "无法列出文件夹：{0}",
    "cannot read root: {0}": "无法读取扫描文件夹：{0}",
    "not a regular file (FIFO, socket or device)": "不是普通文件（管道、套接字或设备）",
    "not a regular file or folder": "不是普通文件或文件夹", "not read": "未读取",
    "too large to fingerprint in memory": "太大，无法在内存中计算指纹",
    "folder already visited through a symbolic link (a loop or an alias)":
        "已经通过符号链接访问过的文件夹（循环或别名）",
    "not entered again": "不再进入",
    "same file as {0} (hard link or followed symlink)": "与 {0} 是同一个文件（硬链接或跟随的符号链接）",
    "read once": "只读取一次",
    "empty": "空文件", "binary": "二进制", "undecodable": "无法解码", "no text": "无文字",
    "unreadable": "无法读取", "vanished": "已消失", "special file": "特殊文件",
    "symbolic link": "符号链接", "link loop": "链接循环", "same file": "同一文件",
    "too large": "太大", "too small": "太小", "document": "文档", "cache": "缓存", "error": "错误",
    "exact, no sampling: all {0} pairs of {1} files": "精确计算，未抽样：{1} 个文件的全部 {0} 对",
    "prefix filtering at J >= {0} gave {1} candidate pairs, {2} candidate pairs measured "
    "exactly after the size and position filters":
        "在 J ≥ {0} 处做前缀过滤得到 {1} 个候选对，经大小和位置过滤后精确测量了 {2} 个候选对",
    "the other {0} pairs are provably below {1} (different)": "其余 {0} 对可以证明低于 {1}（不同）",
    "{0} duplicate pairs, {1} grey-zone pairs ({2} <= J < {3}) left out of the scores":
        "{0} 对重复，{1} 对处于灰色地带（{2} ≤ J < {3}），不计入评分",
    "{0} duplicate pairs, no grey zone": "{0} 对重复，没有灰色地带",
    "{0} s ({1} s shingling, {2} s join)": "{0} 秒（切片 {1} 秒，连接 {2} 秒）",
    "Refused, nothing was done: this would leave files with no copy (or none similar enough).":
        "已拒绝，未做任何改动：这会让一些文件没有副本（或没有足够相似的副本）。",
    "group {0}: all {1} files are marked": "第 {0} 组：全部 {1} 个文件都已标记",
    "unmark at least one to keep": "请至少取消标记一个，以便保留",
    "group {0}: {1} has no kept copy at least {2} similar in text":
        "第 {0} 组：{1} 没有文本相似度至少 {2} 的保留副本",
    "the most similar kept copy is {0} at {1}": "最相似的保留副本是 {0}，相似度 {1}",
    "Unmark a file similar to each of these (the group's reference ★ is similar to every "
    "member).": "请为其中每个文件取消标记一个与它相似的文件（本组的参照文件 ★ 与每个成员都相似）。",
    "{0} marked files are in no group, so no copy of them is known to stay (first: {1})":
        "{0} 个已标记的文件不在任何组中，因此不知道它们有副本会保留（第一个：{1}）",
    "Refused, nothing was done: {0} marked files are under a reference folder, and files "
    "there are never touched (first: {1}). Unmark them or change the reference folders.":
        "已拒绝，未做任何改动：{0} 个已标记的文件位于参照文件夹中，那里的文件从不改动（第一个：{1}）。"
        "请取消标记它们，或修改参照文件夹。",
    # issue 41, part 1: documents (scan settings)
    "Read documents (PDF, Word, OpenDocument, EPUB, RTF)": "读取文档（PDF、Word、OpenDocument、EPUB、RTF）",
    "Compare the text of .pdf, .docx, .odt, .epub and .rtf files with text files. "
    "Unticked, these files are left out of the scan.":
        "将 .pdf、.docx、.odt、.epub 和 .rtf 文件中的文字与文本文件比较。不勾选时，扫描会略过这些文件。",
    # issue 38, item 12 (words: "1 file", not "1 files"; no "remaining 0:00" before a rate)
    "1 file": "1 个文件", "{0} files": "{0} 个文件", "1 pair": "1 对", "{0} pairs": "{0} 对",
    "1 group": "1 组", "{0} groups": "{0} 组", "1 problem": "1 个问题", "{0} problems": "{0} 个问题",
    "1 whole block": "1 个完全相同的块", "{0} whole blocks": "{0} 个完全相同的块",
    "1 held original": "1 个保留的原件", "{0} held originals": "{0} 个保留的原件",
    "Release 1 original": "释放 1 个原件",
    "Delete {0} ({1}) permanently? This cannot be undone.": "永久删除 {0}（{1}）？此操作无法撤销。",
    "Delete {0}": "删除 {0}", "Send {0} ({1}) to the trash?": "把 {0}（{1}）移到回收站？",
    "Send {0} to the trash": "把 {0} 移到回收站",
    "Replace {0} ({1}) with links to their kept copy? Only exact (byte-identical) copies are "
    "replaced; near duplicates are skipped. Undo puts the originals back.":
        "把 {0}（{1}）替换为指向其保留副本的链接？只替换完全相同（逐字节一致）的副本，"
        "近似重复的会跳过。撤销可放回原件。",
    "Replace {0}": "替换 {0}", "Move {0} ({1}) to {2}?": "把 {0}（{1}）移动到 {2}？",
    "Move {0}": "移动 {0}",
    "Delete {0} ({1})? Each was replaced by a link, and its kept copy has the same bytes now. "
    "Undo can then no longer put these originals back; the links stay.":
        "删除 {0}（{1}）？每个原件都已被替换为链接，且保留的副本现在具有相同的字节。"
        "此后撤销将无法放回这些原件；链接会保留。",
    "{0} and {1} are never shown as duplicates. Kept in {2}": "{0}和 {1}不再显示为重复。保存在 {2}",
    "{0} of {1} files, elapsed {2}\n{3}": "{0} / {1} 个文件，已用 {2}\n{3}",
    "Grouping: measuring {0} pairs near the threshold from the files…":
        "正在分组：从文件实测 {0} 对接近阈值的文件…",
    "{0}, {1} in groups, {2} marked ({3}); {4} scanned, {5}":
        "{0}，组内 {1}，已标记 {2} 个（{3}）；共扫描 {4}，{5}",
    "Scanned {0} in {1}.": "扫描了 {0}，用时 {1}。",
    "Cancelled, partial results: {0} fingerprinted before the cancel are shown; scan again for "
    "all of them.": "已取消，结果不完整：显示取消前已计算指纹的 {0}；重新扫描可得到全部结果。",
    # issue 38, items 7 and 14-17: make reference, copy marked to, rename, custom command,
    # remove marked, folder actions, clipboard, the column chooser (app/review_ui.py, columns.py)
    "Preferences": "首选项", "Preferences…": "首选项…",
    "Custom command (Actions > Open with the custom command):":
        "自定义命令（操作 > 用自定义命令打开）：",
    "%a is the selected file, %b the reference of its group (for the reference itself, the "
    "member closest to it). For example: meld %a %b, kdiff3 %a %b, code --diff %a %b. The "
    "command runs without a shell: a file name with spaces or quotes stays one argument.":
        "%a 是选中的文件，%b 是它所在组的参照文件（若选中的就是参照文件，则为与它最相近的成员）。"
        "例如：meld %a %b、kdiff3 %a %b、code --diff %a %b。命令不经过 shell 运行："
        "含空格或引号的文件名仍是一个参数。",
    "Make the selected file its group's reference": "把选中的文件设为所在组的参照文件",
    "Copy marked files to…": "把标记的文件复制到…",
    "Rename the selected file…": "重命名选中的文件…",
    "Open with the custom command": "用自定义命令打开",
    "Remove the marked files from the results (they stay on disk)":
        "从结果中移除标记的文件（文件仍留在磁盘上）",
    "Copy to the clipboard": "复制到剪贴板", "Full path": "完整路径",
    "This folder: {0}": "此文件夹：{0}",
    "Mark every file in it (and below)": "标记其中（含子文件夹）的所有文件",
    "Unmark every file in it (and below)": "取消标记其中（含子文件夹）的所有文件",
    "Remove its files from the results": "从结果中移除其中的文件",
    "Exclude it from later scans": "以后的扫描排除此文件夹",
    "Select a file first.": "请先选择一个文件。",
    "Cannot make it the reference": "无法设为参照文件",
    "{0} is now the reference of its group; keep rules keep it.":
        "{0} 现在是所在组的参照文件；保留规则会保留它。",
    "and {0} more": "以及另外 {0} 个",
    "Files left the group": "有文件离开了该组",
    "{0} is now the reference of its group. Measured against it, these files are less similar "
    "than the threshold ({1} %) and left the group:\n\n{2}":
        "{0} 现在是所在组的参照文件。与它比较后，以下文件的相似度低于阈值（{1} %），"
        "已离开该组：\n\n{2}",
    "Copy marked files to": "把标记的文件复制到", "Mark the files to copy first.": "请先标记要复制的文件。",
    "Copy the marked files ({0}: {1}) to {2}? Nothing is removed or written over; undo removes "
    "the copies.": "把标记的文件（{0} 个：{1}）复制到 {2}？不会删除或覆盖任何文件；撤销会删除这些副本。",
    "New name for {0}:": "{0} 的新名称：", "Cannot rename": "无法重命名", "Not renamed": "未重命名",
    "Renamed to {0}; Undo gives it its old name back.": "已重命名为 {0}；撤销可恢复原名。",
    "No custom command": "没有自定义命令",
    "Set the command first, e.g. meld %a %b (File > Preferences).":
        "请先设置命令，例如 meld %a %b（文件 > 首选项）。",
    "Cannot run the custom command": "无法运行自定义命令", "Started: {0}": "已启动：{0}",
    "Nothing is marked.": "没有标记任何文件。",
    "Marked files removed from the results: {0}. They stay on disk; a new scan shows them again.":
        "已从结果中移除标记的文件：{0} 个。文件仍留在磁盘上；重新扫描会再次显示它们。",
    "The files of {0} are removed from the results; a new scan shows them again.":
        "{0} 中的文件已从结果中移除；重新扫描会再次显示它们。",
    "Cannot exclude the folder": "无法排除该文件夹",
    "{0} is left out of later scans (Settings: Exclude) and its files out of these results.":
        "以后的扫描将排除 {0}（设置：排除），其中的文件也已从当前结果中移除。",
    # the engine's words for them (presenters/engine_text.py)
    "the copy was removed": "副本已删除", "the copy {0} is gone already": "副本 {0} 已不存在",
    "the copy {0} was changed since it was made": "副本 {0} 在复制后被修改过",
    "{0} is no longer the copy simdup made": "{0} 已不是 simdup 制作的副本",
    "left it there": "保留原处",
    "its original {0} is not as it was ({1}), so the copy may be the last one of its text":
        "它的原件 {0} 已与原来不同（{1}），此副本可能是该文本仅存的一份",
    "the copy stays at {0}": "副本保留在 {0}",
    "{0} exists already: a rename never replaces a file": "{0} 已存在：重命名从不替换文件",
    "not renamed": "未重命名", "{0} is in no group": "{0} 不在任何组中",
    "{0} has that name already": "{0} 已经是这个名称",
    "the new name is empty": "新名称为空",
    "{0} is not a file name (a name has no folder in it)": "{0} 不是文件名（文件名中不能含文件夹）",
    "destination is not a folder: {0}": "目标不是文件夹：{0}",
    "{0} is not inside a scanned folder": "{0} 不在扫描的文件夹内",
    "to stop scanning a scanned folder, remove it from the folders to scan":
        "要停止扫描某个扫描文件夹，请把它从要扫描的文件夹中移除",
    "{0} is inside the scanned folder {1}: the copies will be found as duplicates by its next "
    "scan": "{0} 位于扫描的文件夹 {1} 内：下次扫描会把这些副本当作重复文件找出",
    "a folder outside keeps them out": "选择外部的文件夹可避免这种情况",
    "the custom command cannot be read: {0}": "无法解析自定义命令：{0}",
    "no custom command is set (Preferences)": "尚未设置自定义命令（首选项）",
    "the custom command needs a second file (%b), and there is none":
        "自定义命令需要第二个文件（%b），但没有",
    "{0} is under a reference folder, and files there are never touched":
        "{0} 位于参照文件夹中，那里的文件从不改动",
    # issue 38, item 9 (dark mode: View > Theme)
    "Theme": "主题", "System": "跟随系统", "Light": "浅色", "Dark": "深色",
    # issue 38, item 2 (the session kept across runs: app/kept_ui.py)
    "Restoring the last session…": "正在恢复上次的会话…",
    "The last session could not be restored ({0}): {1}": "无法恢复上次的会话（{0}）：{1}",
    "Restored the last session: {0} in groups; checking them against the disk…":
        "已恢复上次的会话：组中有 {0}；正在与磁盘核对…",
    "The check of the restored session was cancelled: files changed since the last session "
    "may still be shown. Scan again to check them.":
        "已取消对恢复的会话的核对：上次会话之后改动过的文件可能仍在显示。请重新扫描以核对。",
    "Restored the last session and checked it against the disk: nothing changed since.":
        "已恢复上次的会话并与磁盘核对：此后没有任何变化。",
    "Restored the last session and checked it against the disk: {0} gone and {1} changed "
    "since: the groups now show the files as they are, and those files lost their marks.":
        "已恢复上次的会话并与磁盘核对：此后有 {0}已不存在、{1}被修改；分组现在按文件的当前状态显示，"
        "这些文件的标记已清除。",
    "Quit simdup?": "退出 simdup？",
    "Marks on {0} were not acted on or saved. Save this session with its marks, to see it "
    "again at the next start?": "{0}上的标记尚未执行操作，也未保存。要保存本次会话及其标记，以便下次启动时再看到吗？",
    "Save and quit": "保存并退出", "Quit without saving": "不保存并退出",
    "Cannot save the session": "无法保存会话",
    # issue 38, item 10 (column widths: the header's menu)
    "Reset column widths": "重置列宽",
    # issue 38, item 11 (a file nothing opens; the dry-run switch seen)
    "Nothing opened {0}: no desktop application is set for it here (or no desktop is "
    "running). Open it from your file manager.":
        "没有程序打开 {0}：这里没有为它设置桌面应用程序（或者没有运行桌面）。请在文件管理器中打开它。",
    "Dry run: actions change nothing": "演练：操作不改动任何文件",
    "Actions only list what they would do. Click to turn dry run off (Actions menu).":
        "操作只列出将会做什么。点击即可关闭演练（操作菜单）。",
    # issue 41, part 2 (catalogs: a drive that is not plugged in; app/catalog_ui.py)
    "Save catalog…": "保存清单…",
    "Keep what the scan knows of every file (not the texts), to compare with it while this "
    "drive is not plugged in": "保存扫描所知的每个文件的信息（不含文本），以便在这个驱动器未接入时与它比较",
    "Compare with catalog…": "与清单比较…",
    "Stop comparing with catalogs": "停止与清单比较",
    "copy in a catalog (mark the copies here but one)": "清单中的副本（标记本机上除一份外的副本）",
    "copy in a catalog, and mark the last copy here too…": "清单中的副本，本机上的最后一份也标记…",
    "Save catalog": "保存清单",
    "Catalogs (*{0})": "清单 (*{0})",
    "Catalogued {0} files in {1}": "已将 {0} 个文件记入清单 {1}",
    "Cannot save the catalog": "无法保存清单",
    "Compare with catalog": "与清单比较",
    "Cannot compare with the catalog": "无法与清单比较",
    "Reading the catalog {0}…": "正在读取清单 {0}…",
    "Comparing with the catalog {0}: {1} files of a drive that is not connected":
        "正在与清单 {0} 比较：未连接的驱动器上的 {1} 个文件",
    "Mark the last copies?": "标记最后一份？",
    "{0} of the files to mark are the last copy on this computer: only a catalog says that a "
    "copy with the same bytes is on a drive that is not connected, and simdup cannot check "
    "that it still is. An action on them removes the last copy here.\n\nMark them too?":
        "要标记的文件中有 {0} 个是本机上的最后一份：只有清单表明未连接的驱动器上有字节完全相同的副本，"
        "而 simdup 无法核实它是否仍在。对它们执行操作会去掉本机上的最后一份。\n\n也标记它们吗？",
    "Mark the last copies too": "也标记最后一份",
    "The last copy here": "本机上的最后一份",
    "{0} marked files have no other copy on this computer. Only the catalog {1} says that a "
    "copy with the same bytes is on a drive that is not connected; simdup cannot check that "
    "it still is.\n\nLet them go on the catalog's word?":
        "{0} 个已标记的文件在本机上没有其他副本。只有清单 {1} 表明未连接的驱动器上有字节完全相同的副本；"
        "simdup 无法核实它是否仍在。\n\n仅凭清单就处理它们吗？",
    "Let them go": "处理它们",
    "{0} in a catalog": "{0} 个在清单中",
    "in catalog {0} (not connected)": "在清单 {0} 中（未连接）",
    "In catalog {0}, on a drive that is not connected: only its fingerprint and sketch are "
    "known, so its similarity is estimated, and it is never marked, moved or deleted":
        "在清单 {0} 中，位于未连接的驱动器上：只知道它的指纹和草图，因此相似度是估计值；它从不会被标记、移动或删除",
    "it is in catalog {0}, on a drive that is not connected": "它在清单 {0} 中，位于未连接的驱动器上",
    "It is in a catalog, on a drive that is not connected: there is nothing to open here.":
        "它在清单中，位于未连接的驱动器上：这里没有可打开的文件。",
    "; compared with the catalog {0} ({1})": "；已与清单 {0}（{1}）比较",
    "Refused, nothing was done: {0} marked files are from a catalog, not on this computer, and "
    "files there are never touched (first: {1}).":
        "已拒绝，未做任何改动：{0} 个已标记的文件来自清单，不在本机上，这样的文件从不改动（第一个：{1}）。",
    "group {0}: {1} keeps no copy on this computer, and a link needs one here (its copy is in "
    "the catalog {2})": "第 {0} 组：{1} 在本机上没有保留的副本，而链接需要本机上的副本（它的副本在清单 {2} 中）",
    "group {0}: {1} keeps no copy on this computer, and no file of a catalog has its bytes (a "
    "near duplicate's differences are not on that drive)":
        "第 {0} 组：{1} 在本机上没有保留的副本，清单中也没有字节与它相同的文件（近似重复文件的差异不在那个驱动器上）",
    "{0} marked files would keep no copy on this computer: only the catalog {1} says a "
    "byte-identical copy is on a drive that is not plugged in (first: {2}). Relying on a "
    "catalog for the last copy here must be chosen explicitly.":
        "{0} 个已标记的文件在本机上将不留副本：只有清单 {1} 表明未接入的驱动器上有字节完全相同的副本"
        "（第一个：{2}）。凭清单处理本机上的最后一份必须明确选择。",
    "Refused, nothing was done: {0}": "已拒绝，未做任何改动：{0}",
    "{0} is in a catalog, not on this computer": "{0} 在清单中，不在本机上",
    "the file is in a catalog, on a drive that is not connected": "该文件在清单中，位于未连接的驱动器上",
    "cannot read the catalog {0}: {1}": "无法读取清单 {0}：{1}",
    "{0} is not a simdup catalog (not an SQLite file)": "{0} 不是 simdup 清单（不是 SQLite 文件）",
    "{0} is not a simdup catalog (other tables in it)": "{0} 不是 simdup 清单（含有其他表）",
    "{0} is damaged or not a simdup catalog: {1}": "{0} 已损坏或不是 simdup 清单：{1}",
    "{0} is damaged: {1}": "{0} 已损坏：{1}",
    "{0} is a catalog of format version {1}": "{0} 是格式版本 {1} 的清单",
    "this simdup reads version {0}": "此版本的 simdup 读取版本 {0}",
    "{0} is not compared: {1}": "未与 {0} 比较：{1}",
    "{0} is compared with already": "已在与 {0} 比较",
    "it was made with other fingerprint settings ({0}), so its fingerprints cannot be compared":
        "它是用其他指纹设置（{0}）制作的，因此无法比较其指纹",
    "scan with the features setting {0} to compare with it": "用特征设置 {0} 扫描即可与它比较",
    "the worker processes could not be started ({0})": "无法启动工作进程（{0}）",
    "the worker processes keep ending as they start (the last exit code {0})":
        "工作进程一启动就退出（最后的退出码 {0}）",
    "the scan went on in its own process, more slowly": "扫描改在本进程中继续，速度较慢",
    "catalog not compared: it was made with other fingerprint settings ({0}), so its "
    "fingerprints cannot be compared": "未与清单比较：它是用其他指纹设置（{0}）制作的，因此无法比较其指纹",
    "catalog": "清单",
    "Same text (≡) as {0} other member(s): {1}": "与另外 {0} 个成员文字相同（≡）：{1}",
    # the Excerpts tab (issue 41, part 3)
    "Excerpts ({0})": "摘录（{0}）", "Excerpt": "摘录", "Is inside": "所在文件", "Contained": "包含比例",
    "{0} of the text of {1} is inside {2}": "{1} 的文本有 {0} 包含在 {2} 中",
    # the last copy on a catalog's word, two catalogs of one name (review of issue 41)
    "the last copy on this computer: only a catalog says a copy is on a drive that is not "
    "plugged in, and on a catalog's word a file is moved or trashed, never deleted permanently":
        "这是本机上的最后一份：只有目录说未连接的驱动器上有一份；凭目录的说法，文件只会被移动或移到回收站，绝不会被永久删除",
    "another catalog is called {0} already": "已有另一个目录名为 {0}",
    "compare again": "请重新比较",
    "group {0}: {1} is the last copy on this computer": "第 {0} 组：{1} 是本机上的最后一份",
    "on a catalog's word it may be moved or trashed, never be deleted permanently (its copy is "
    "in the catalog {0})": "凭目录的说法，它只能被移动或移到回收站，绝不能被永久删除（它的副本在目录 {0} 中）",
    " (verified groups: F1 {0:.2f} at k={1}; templates kept apart: F1 {2:.2f})":
        "（验证后的分组：k={1} 时 F1 为 {0:.2f}；模板文档分开：F1 为 {2:.2f}）",
    # issue 37, part 2: a near-duplicate in another group ("also similar to ...")
    "also similar to group {0}": "也与第 {0} 组相似",
    "also group {0}": "另见第 {0} 组",
    "Also similar to {0} in group {1} ({2:.1%}): a near-duplicate shown in that group (each "
    "file is in one group only)":
        "也与第 {1} 组的 {0} 相似（{2:.1%}）：一个近似重复文件，显示在那一组中（每个文件只属于一个组）",
    "{0} files, more than a million: grouping them on this machine takes about 2 GB of memory "
    "a million files, more when many are alike. With a Dask scheduler their candidate step runs "
    "on the cluster.":
        "{0} 个文件，超过一百万：在本机分组，每一百万个文件约需 2 GB 内存，相似文件多时更多。"
        "设置 Dask 调度器后，候选步骤在集群上运行。",
})
