"""Simplified Chinese for the interface (source text -> translation)."""

ZH = {
    "Name": "名称", "Folder": "文件夹", "Size": "大小", "Modified": "修改时间", "Encoding": "编码",
    "Distance": "距离", "Similarity": "相似度", "exact text": "文字完全相同",
    "near-duplicates": "近似重复", "Group {0}: {1} files, {2}": "第 {0} 组：{1} 个文件，{2}",
    "Representative of the group": "本组的代表文件",
    "Short text: few words, so the fingerprint is less reliable": "文本很短：词语少，指纹不太可靠",
    "Representative": "代表文件", "Selected file": "所选文件",
    "Select a file in a group to compare its fingerprint with the group's representative.":
        "在组中选择一个文件，将它的指纹与本组的代表文件比较。",
    "within the limit k={0}: grouped": "在上限 k={0} 以内：归为一组",
    "beyond k={0}: linked through other files": "超过 k={0}：经由其他文件连成一组",
    "Hamming distance {0} of {1} bits, similarity {2:.1%} ({3}). Differing bits are red. The "
    "index splits the {1} bits into {4} blocks (blue lines); {5} of them match exactly (shaded): "
    "by the pigeonhole principle a pair within k differs in at most k blocks, so it shares at "
    "least {6} whole blocks and the index finds it.":
        "海明距离 {0}（共 {1} 位），相似度 {2:.1%}（{3}）。不同的位标为红色。索引把 {1} 位分成 {4} "
        "块（蓝线）；其中 {5} 块完全相同（加深）：根据抽屉原理，距离不超过 k 的两个指纹最多有 k "
        "块不同，因此至少有 {6} 块完全相同，索引一定能找到它们。",
    "Select a file": "请选择文件",
    "simdup: near-duplicate text files": "simdup：近似重复的文本文件",
    "Folders to scan (drop folders here)": "要扫描的文件夹（可把文件夹拖到这里）",
    "Add folder…": "添加文件夹…", "Remove": "移除", "Settings": "设置",
    "Fingerprint size (bits)": "指纹位数", "Maximum distance k": "最大距离 k",
    "Similarity": "相似度", "Features": "特征", "Grouping": "分组方式",
    "Include patterns": "包含模式", "Exclude patterns": "排除模式", "Minimum size": "最小大小",
    "e.g. *.txt *.md (empty: all text files)": "如 *.txt *.md（留空：所有文本文件）",
    "e.g. *.log build": "如 *.log build",
    "shingles: words and word pairs, TF-IDF weighted (best measured accuracy); tokens: words "
    "only; topk: the seeds' top-K keywords":
        "shingles：词语和相邻词对，TF-IDF 加权（实测准确率最高）；tokens：只用词语；"
        "topk：原文的前 K 个关键词",
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
    "Cancelled: {0} files fingerprinted before the cancel are kept.":
        "已取消：保留了取消前已计算指纹的 {0} 个文件。",
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
    "Select a file to compare it with the representative.": "选择一个文件，与代表文件比较。",
    "cannot read: {0}": "无法读取：{0}", "{0}, line endings {1}, {2}": "{0}，换行符 {1}，{2}",
    " (first part shown)": "（只显示开头部分）",
}
