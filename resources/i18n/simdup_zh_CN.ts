<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>BitDiffView</name>
    <message>
        <location filename="../../simdup_gui/app/bitgrid.py" line="98" />
        <source>Representative</source>
        <translation>代表文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/bitgrid.py" line="99" />
        <source>Selected file</source>
        <translation>所选文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/bitgrid.py" line="100" />
        <source>Select a file in a group to compare its fingerprint with the group's representative.</source>
        <translation>在组中选择一个文件，将它的指纹与本组的代表文件比较。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/bitgrid.py" line="105" />
        <source>within the limit k={0}: grouped</source>
        <translation>在上限 k={0} 以内：归为一组</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/bitgrid.py" line="107" />
        <source>beyond k={0}: linked through other files</source>
        <translation>超过 k={0}：经由其他文件连成一组</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/bitgrid.py" line="109" />
        <source>Hamming distance {0} of {1} bits, similarity {2:.1%} ({3}). Differing bits are red. The index splits the {1} bits into {4} blocks (blue lines); {5} of them match exactly (shaded): by the pigeonhole principle a pair within k differs in at most k blocks, so it shares at least {6} whole blocks and the index finds it.</source>
        <translation>海明距离 {0}（共 {1} 位），相似度 {2:.1%}（{3}）。不同的位标为红色。索引把 {1} 位分成 {4} 块（蓝线）；其中 {5} 块完全相同（加深）：根据抽屉原理，距离不超过 k 的两个指纹最多有 k 块不同，因此至少有 {6} 块完全相同，索引一定能找到它们。</translation>
    </message>
</context>
<context>
    <name>BitGrid</name>
    <message>
        <location filename="../../simdup_gui/app/bitgrid.py" line="37" />
        <source>Select a file</source>
        <translation>请选择文件</translation>
    </message>
</context>
<context>
    <name>GroupTreeModel</name>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="76" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="76" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="76" />
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="76" />
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="76" />
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="77" />
        <source>Distance</source>
        <translation>距离</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="77" />
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="105" />
        <source>exact text</source>
        <translation>文字完全相同</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="105" />
        <source>near-duplicates</source>
        <translation>近似重复</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="106" />
        <source>Group {0}: {1} files, {2}</source>
        <translation>第 {0} 组：{1} 个文件，{2}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="153" />
        <source>Representative of the group</source>
        <translation>本组的代表文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="155" />
        <source>Short text: few words, so the fingerprint is less reliable</source>
        <translation>文本很短：词语少，指纹不太可靠</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="278" />
        <source>simdup: near-duplicate text files</source>
        <translation>simdup：近似重复的文本文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="279" />
        <source>Folders to scan (drop folders here)</source>
        <translation>要扫描的文件夹（可把文件夹拖到这里）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="280" />
        <location filename="../../simdup_gui/app/window.py" line="306" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="281" />
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="282" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="283" />
        <source>Fingerprint size (bits)</source>
        <translation>指纹位数</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="283" />
        <source>Maximum distance k</source>
        <translation>最大距离 k</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="284" />
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="284" />
        <source>Features</source>
        <translation>特征</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="284" />
        <source>Grouping</source>
        <translation>分组方式</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="285" />
        <source>Include patterns</source>
        <translation>包含模式</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="285" />
        <source>Exclude patterns</source>
        <translation>排除模式</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="286" />
        <source>Minimum size</source>
        <translation>最小大小</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="289" />
        <source>e.g. *.txt *.md (empty: all text files)</source>
        <translation>如 *.txt *.md（留空：所有文本文件）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="290" />
        <source>e.g. *.log build</source>
        <translation>如 *.log build</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="291" />
        <source>shingles: words and word pairs, TF-IDF weighted (best measured accuracy); tokens: words only; topk: the seeds' top-K keywords</source>
        <translation>shingles：词语和相邻词对，TF-IDF 加权（实测准确率最高）；tokens：只用词语；topk：原文的前 K 个关键词</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="294" />
        <source>linked: files joined by any chain of near pairs; strict: every pair in a group within k</source>
        <translation>linked：由相近文件链连成一组；strict：组内每两个文件的距离都不超过 k</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="296" />
        <location filename="../../simdup_gui/app/window.py" line="307" />
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="297" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="298" />
        <source>Filter by name or folder</source>
        <translation>按名称或文件夹筛选</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="299" />
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="300" />
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="301" />
        <source>Duplicates</source>
        <translation>重复文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="302" />
        <location filename="../../simdup_gui/app/window.py" line="517" />
        <source>Problems ({0})</source>
        <translation>问题（{0}）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="304" />
        <source>Accuracy lab</source>
        <translation>准确率实验</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="305" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="308" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="309" />
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="310" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="311" />
        <location filename="../../simdup_gui/app/window.py" line="591" />
        <source>About simdup</source>
        <translation>关于 simdup</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="317" />
        <source>Ready.</source>
        <translation>就绪。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="396" />
        <source>k={0} of {1} bits = {2:.0%} of bits equal</source>
        <translation>k={0}（共 {1} 位）= {2:.0%} 的位相同</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="408" />
        <source>Add a folder to scan</source>
        <translation>添加要扫描的文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="420" />
        <source>Nothing to scan</source>
        <translation>没有可扫描的内容</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="421" />
        <source>Add at least one folder first.</source>
        <translation>请先至少添加一个文件夹。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="435" />
        <source>Listing files…</source>
        <translation>正在列出文件…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="444" />
        <source>Cancel the scan?</source>
        <translation>取消扫描？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="445" />
        <source>The scan has run for a while. Cancel it? Files fingerprinted so far are kept and grouped.</source>
        <translation>扫描已经进行了一段时间。要取消吗？已经计算指纹的文件会保留并分组。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="451" />
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="458" />
        <source>Listing files: {0} found
{1}</source>
        <translation>正在列出文件：已找到 {0} 个
{1}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="470" />
        <source>{0} of {1} files, {2:.1f} MB/s, elapsed {3}, remaining {4}
{5}</source>
        <translation>{0} / {1} 个文件，{2:.1f} MB/s，已用 {3}，剩余 {4}
{5}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="481" />
        <source>Cancelled: {0} files fingerprinted before the cancel are kept.</source>
        <translation>已取消：保留了取消前已计算指纹的 {0} 个文件。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="482" />
        <source>Scanned {0} files in {1}.</source>
        <translation>扫描了 {0} 个文件，用时 {1}。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="487" />
        <source>The scan failed.</source>
        <translation>扫描失败。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="488" />
        <source>Scan failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="526" />
        <source>{0} groups, {1} files in groups, {2} marked ({3}); {4} files scanned, {5} problems</source>
        <translation>{0} 组，组内 {1} 个文件，已标记 {2} 个（{3}）；共扫描 {4} 个文件，{5} 个问题</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="581" />
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="582" />
        <source>Reveal in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="583" />
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="592" />
        <source>simdup finds near-duplicate text files with SimHash fingerprints: re-encoded, re-wrapped or lightly edited copies that byte-hash tools miss.

Index: {0}</source>
        <translation>simdup 用 SimHash 指纹查找近似重复的文本文件：换了编码、换了排版或略有修改的副本，按字节比较的工具找不到它们。

索引：{0}</translation>
    </message>
</context>
<context>
    <name>ProblemsModel</name>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="238" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="239" />
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/models.py" line="240" />
        <source>Path</source>
        <translation>路径</translation>
    </message>
</context>
<context>
    <name>TextDiffView</name>
    <message>
        <location filename="../../simdup_gui/app/textdiffview.py" line="62" />
        <source>Load more of both files</source>
        <translation>加载两个文件的更多内容</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/textdiffview.py" line="64" />
        <source>Select a file to compare it with the representative.</source>
        <translation>选择一个文件，与代表文件比较。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/textdiffview.py" line="86" />
        <source>cannot read: {0}</source>
        <translation>无法读取：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/textdiffview.py" line="87" />
        <source>{0}, line endings {1}, {2}</source>
        <translation>{0}，换行符 {1}，{2}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/textdiffview.py" line="88" />
        <source> (first part shown)</source>
        <translation>（只显示开头部分）</translation>
    </message>
</context>
</TS>