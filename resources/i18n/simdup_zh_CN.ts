<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>AccuracyModel</name>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="25" />
        <source>bits</source>
        <translation>位数</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="25" />
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="26" />
        <source>precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="27" />
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="27" />
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="28" />
        <source>TP</source>
        <translation>TP</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="28" />
        <source>FP</source>
        <translation>FP</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="29" />
        <source>FN</source>
        <translation>FN</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="30" />
        <source>chance/file</source>
        <translation>随机匹配/文件</translation>
    </message>
</context>
<context>
    <name>AccuracyTab</name>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="175" />
        <source>Folder of labelled text files</source>
        <translation>带标注的文本文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="176" />
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="177" />
        <source>Synthetic manifest (manifest.json)</source>
        <translation>合成语料清单（manifest.json）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="178" />
        <source>CSV of known duplicates</source>
        <translation>已知重复文件的 CSV</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="179" />
        <source>Reference: exact Jaccard ≥ threshold</source>
        <translation>参照：精确 Jaccard ≥ 阈值</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="180" />
        <source>Generate a synthetic corpus</source>
        <translation>生成合成语料</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="182" />
        <source>CSV: group,path or path_a,path_b,label</source>
        <translation>CSV：group,path 或 path_a,path_b,label</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="183" />
        <source>CSV…</source>
        <translation>CSV…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="184" />
        <source>Jaccard ≥ </source>
        <translation>Jaccard ≥ </translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="185" />
        <source> documents</source>
        <translation> 篇文档</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="186" />
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="187" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="189" />
        <source>Choose a corpus and its truth, then press Run.</source>
        <translation>选择语料和标注来源，然后点击“运行”。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="190" />
        <source>Corpus:</source>
        <translation>语料：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="191" />
        <source>Truth:</source>
        <translation>标注：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="192" />
        <source>Features:</source>
        <translation>特征：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="194" />
        <source>{0} bits: P, R, F1 and chance matches against k</source>
        <translation>{0} 位：P、R、F1 与随机匹配随 k 的变化</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="195" />
        <source>Best F1 per fingerprint size</source>
        <translation>各指纹位数的最佳 F1</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="196" />
        <source>Precision-recall curves (one point per k)</source>
        <translation>精确率-召回率曲线（每个 k 一个点）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="197" />
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="198" />
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="200" />
        <source>Per-size charts: &lt;b style='color:#1f77b4'&gt;precision&lt;/b&gt;, &lt;b style='color:#ff7f0e'&gt;recall&lt;/b&gt;, &lt;b style='color:#2ca02c'&gt;F1&lt;/b&gt; (left axis); &lt;b style='color:#7f7f7f'&gt;dashed: chance matches per file&lt;/b&gt; (right axis, log scale); &lt;b style='color:#d62728'&gt;dotted: one random match per file&lt;/b&gt;. A pink chart or row means random fingerprints already match more than once per file.</source>
        <translation>各位数的图：&lt;b style='color:#1f77b4'&gt;精确率&lt;/b&gt;、&lt;b style='color:#ff7f0e'&gt;召回率&lt;/b&gt;、&lt;b style='color:#2ca02c'&gt;F1&lt;/b&gt;（左轴）；&lt;b style='color:#7f7f7f'&gt;虚线：每个文件的随机匹配数&lt;/b&gt;（右轴，对数刻度）；&lt;b style='color:#d62728'&gt;点线：每个文件一次随机匹配&lt;/b&gt;。粉色的图或行表示随机指纹平均已经匹配不止一次。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="224" />
        <source>Corpus folder</source>
        <translation>语料文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="229" />
        <source>Known duplicates</source>
        <translation>已知的重复文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="230" />
        <location filename="../../simdup_gui/app/accuracy.py" line="364" />
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="263" />
        <location filename="../../simdup_gui/app/accuracy.py" line="277" />
        <source>An evaluation is already running</source>
        <translation>已有评估在运行</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="272" />
        <source>Not a folder: {0}</source>
        <translation>不是文件夹：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="288" />
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="296" />
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="61" />
        <source>Generating the corpus</source>
        <translation>正在生成语料</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="62" />
        <source>Listing files</source>
        <translation>正在列出文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="63" />
        <location filename="../../simdup_gui/core/presenters/lab.py" line="67" />
        <source>Fingerprinting</source>
        <translation>正在计算指纹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="64" />
        <source>Reading texts for the reference</source>
        <translation>正在读取文本作为参照</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="65" />
        <source>Measuring reference similarity</source>
        <translation>正在计算参照相似度</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="66" />
        <source>Scoring every size and k</source>
        <translation>正在评估每种位数和 k</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="68" />
        <source>{0}: {1} of {2}</source>
        <translation>{0}：{1} / {2}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="315" />
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="319" />
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="73" />
        <source>{0} files, truth: {1}; {2} duplicate pairs. {3}</source>
        <translation>{0} 个文件，标注：{1}；{2} 对重复。{3}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="82" />
        <source>{0} bits: best F1 {1:.2f} at k={2}, {3} random matches per file</source>
        <translation>{0} 位：k={2} 时最佳 F1 为 {1:.2f}，每个文件 {3} 次随机匹配</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="88" />
        <source>. Pink rows: more chance matches than one per file, so small fingerprints drown in coincidences.</source>
        <translation>。粉色行：每个文件的随机匹配超过一次，位数少的指纹被巧合淹没。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="343" />
        <source>k (max Hamming distance)</source>
        <translation>k（最大海明距离）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="344" />
        <source>chance matches/file</source>
        <translation>随机匹配/文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="350" />
        <location filename="../../simdup_gui/core/presenters/lab.py" line="115" />
        <source>precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="349" />
        <location filename="../../simdup_gui/core/presenters/lab.py" line="116" />
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="116" />
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="119" />
        <source>chance matches/file (log)</source>
        <translation>随机匹配/文件（对数）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="122" />
        <source>1 random match/file</source>
        <translation>每文件 1 次随机匹配</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="346" />
        <source>best F1</source>
        <translation>最佳 F1</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/lab.py" line="134" />
        <location filename="../../simdup_gui/core/presenters/lab.py" line="140" />
        <source>{0} bits</source>
        <translation>{0} 位</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="355" />
        <source>Nothing to export yet</source>
        <translation>还没有可导出的内容</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="363" />
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="372" />
        <source>Export PNG</source>
        <translation>导出 PNG</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="373" />
        <source>PNG images (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/accuracy.py" line="375" />
        <source>Could not write {0}</source>
        <translation>无法写入 {0}</translation>
    </message>
</context>
<context>
    <name>ActionsController</name>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="145" />
        <source>&amp;Mark</source>
        <translation>标记(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="146" />
        <source>&amp;Actions</source>
        <translation>操作(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="147" />
        <source>Mark all but one in each group, keeping the…</source>
        <translation>每组只保留一个，其余全部标记，保留…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="148" />
        <source>oldest file</source>
        <translation>最早的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="148" />
        <source>newest file</source>
        <translation>最新的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="149" />
        <source>largest file</source>
        <translation>最大的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="149" />
        <source>smallest file</source>
        <translation>最小的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="150" />
        <source>shortest path</source>
        <translation>路径最短的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="150" />
        <source>longest path</source>
        <translation>路径最长的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="153" />
        <source>copy in a preferred encoding…</source>
        <translation>指定编码的副本…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="154" />
        <source>copy under a preferred folder…</source>
        <translation>指定文件夹中的副本…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="155" />
        <source>Mark selected</source>
        <translation>标记所选</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="156" />
        <source>Unmark selected</source>
        <translation>取消标记所选</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="157" />
        <source>Invert marks</source>
        <translation>反选标记</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="158" />
        <source>Clear marks</source>
        <translation>清除标记</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="159" />
        <source>Reference folders (never marked)…</source>
        <translation>参考文件夹（从不标记）…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="160" />
        <source>Dry run: list what would happen, touch nothing</source>
        <translation>演练：只列出将要发生的操作，不改动任何文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="161" />
        <source>Move marked files to…</source>
        <translation>把标记的文件移动到…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="162" />
        <source>Send marked files to the trash</source>
        <translation>把标记的文件移到回收站</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="163" />
        <source>Delete marked files permanently…</source>
        <translation>永久删除标记的文件…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="164" />
        <source>Undo the last action</source>
        <translation>撤销上一次操作</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="165" />
        <source>Resume an interrupted action from its journal…</source>
        <translation>从操作日志继续被中断的操作…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="166" />
        <source>Roll back an action from its journal…</source>
        <translation>从操作日志回滚一次操作…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="167" />
        <source>Clear the fingerprint cache</source>
        <translation>清除指纹缓存</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="168" />
        <source>Save results…</source>
        <translation>保存结果…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="169" />
        <source>Load results…</source>
        <translation>载入结果…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="170" />
        <source>Export groups as</source>
        <translation>导出分组为</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="190" />
        <source>Preferred encoding</source>
        <translation>首选编码</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="191" />
        <source>Keep the copy in this encoding:</source>
        <translation>保留此编码的副本：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="196" />
        <source>Keep the copies under this folder</source>
        <translation>保留此文件夹中的副本</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="214" />
        <source>Reference folders</source>
        <translation>参考文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="215" />
        <source>Files under these folders are never marked (one folder per line):</source>
        <translation>这些文件夹中的文件永远不会被标记（每行一个文件夹）：</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="230" />
        <source>Move marked files to</source>
        <translation>把标记的文件移动到</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="234" />
        <source>Keep folder structure?</source>
        <translation>保留文件夹结构？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="235" />
        <source>Keep each file's folders relative to its scan root? (No: put all files directly in the destination; name clashes get a unique name.)</source>
        <translation>保留每个文件相对于扫描根目录的文件夹结构吗？（否：所有文件直接放入目标文件夹，重名时自动改用不重复的名称。）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="266" />
        <location filename="../../simdup_gui/app/actions_ui.py" line="324" />
        <source>Refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="271" />
        <source>Nothing marked</source>
        <translation>没有标记的文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="272" />
        <source>Mark the copies to act on first.</source>
        <translation>请先标记要处理的副本。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="243" />
        <source>Delete {0} files ({1}) permanently? This cannot be undone.</source>
        <translation>永久删除 {0} 个文件（{1}）？此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="245" />
        <source>Send {0} files ({1}) to the trash?</source>
        <translation>把 {0} 个文件（{1}）移到回收站？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="247" />
        <source>Move {0} files ({1}) to {2}?</source>
        <translation>把 {0} 个文件（{1}）移动到 {2}？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="248" />
        <source>Confirm</source>
        <translation>确认</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="285" />
        <source>Journals (*.jsonl)</source>
        <translation>操作日志 (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="289" />
        <source>Resume which action?</source>
        <translation>继续哪一次操作？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="294" />
        <source>Roll back which action?</source>
        <translation>回滚哪一次操作？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="307" />
        <source>Cleared {0} cached fingerprints.</source>
        <translation>已清除 {0} 条缓存的指纹。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="327" />
        <source>Action failed</source>
        <translation>操作失败</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="339" />
        <source>Save results</source>
        <translation>保存结果</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="350" />
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="352" />
        <source>Saved {0}</source>
        <translation>已保存 {0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="360" />
        <source>Load results</source>
        <translation>载入结果</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="371" />
        <source>Cannot load</source>
        <translation>无法载入</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="380" />
        <source>Export groups</source>
        <translation>导出分组</translation>
    </message>
</context>
<context>
    <name>BitDiffView</name>
    <message>
        <location filename="../../simdup_gui/core/presenters/details.py" line="52" />
        <source>Reference</source>
        <translation>参照文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/details.py" line="52" />
        <source>Selected file</source>
        <translation>所选文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/details.py" line="53" />
        <source>Select a file in a group to compare its fingerprint with the group's reference.</source>
        <translation>在组中选择一个文件，将它的指纹与本组的参照文件比较。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/details.py" line="55" />
        <source>within k={0}: a candidate pair</source>
        <translation>在 k={0} 以内：候选文件对</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/details.py" line="57" />
        <source>beyond k={0}: not proposed by SimHash</source>
        <translation>超过 k={0}：SimHash 不会提出</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/details.py" line="59" />
        <source>Hamming distance {0} of {1} bits, {2:.1%} of bits equal ({3}). Differing bits are red. The index splits the {1} bits into {4} blocks (blue lines); {5} of them match exactly (shaded): by the pigeonhole principle a pair within k differs in at most k blocks, so it shares at least {6} whole blocks and the index finds it.</source>
        <translation>海明距离 {0}（共 {1} 位），{2:.1%} 的位相同（{3}）。不同的位标为红色。索引把 {1} 位分成 {4} 块（蓝线）；其中 {5} 块完全相同（加深）：根据抽屉原理，距离不超过 k 的两个指纹最多有 k 块不同，因此至少有 {6} 块完全相同，索引一定能找到它们。</translation>
    </message>
</context>
<context>
    <name>BitGrid</name>
    <message>
        <location filename="../../simdup_gui/app/bitgrid.py" line="38" />
        <source>Select a file</source>
        <translation>请选择文件</translation>
    </message>
</context>
<context>
    <name>GroupTreeModel</name>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="24" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="24" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="25" />
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="25" />
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="26" />
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="26" />
        <source>Distance</source>
        <translation>距离</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="27" />
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="100" />
        <source>exact text</source>
        <translation>文字完全相同</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="101" />
        <source>near-duplicates</source>
        <translation>近似重复</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="102" />
        <source>Group {0}: {1} files, {2}</source>
        <translation>第 {0} 组：{1} 个文件，{2}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="126" />
        <source>too short</source>
        <translation>太短</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="136" />
        <source>Reference of the group: every member is compared with it</source>
        <translation>本组的参照文件：每个成员都与它比较</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="139" />
        <source>Same normalised text as the representative</source>
        <translation>规范化后的文字与代表文件完全相同</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="141" />
        <source>measured from both files</source>
        <translation>由两个文件实测</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="142" />
        <source>estimated from sketches</source>
        <translation>由草图估计</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="143" />
        <source>Text similarity to the reference: {0:.1%} ({1})</source>
        <translation>与参照文件的文本相似度：{0:.1%}（{1}）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="147" />
        <source>Too short to compare (five characters or fewer): grouped only with the same text</source>
        <translation>太短，无法比较（不超过五个字符）：只与相同文本归为一组</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="151" />
        <source>Short text: few words, so the fingerprint is less reliable</source>
        <translation>文本很短：词语少，指纹不太可靠</translation>
    </message>
</context>
<context>
    <name>GroupsView</name>
    <message>
        <location filename="../../simdup_gui/app/groups_view.py" line="69" />
        <source>Filter by name or folder</source>
        <translation>按名称或文件夹筛选</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/groups_view.py" line="70" />
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/groups_view.py" line="71" />
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="159" />
        <source>simdup: near-duplicate text files</source>
        <translation>simdup：近似重复的文本文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="168" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="169" />
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="162" />
        <source>Duplicates</source>
        <translation>重复文件</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="163" />
        <location filename="../../simdup_gui/app/window.py" line="324" />
        <source>Problems ({0})</source>
        <translation>问题（{0}）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="165" />
        <source>Accuracy lab</source>
        <translation>准确率实验</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="167" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="170" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="171" />
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="172" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="173" />
        <location filename="../../simdup_gui/app/window.py" line="358" />
        <source>About simdup</source>
        <translation>关于 simdup</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="178" />
        <source>Ready.</source>
        <translation>就绪。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/progress.py" line="61" />
        <source>k={0} of {1} bits: files within k are grouped, unchecked</source>
        <translation>k={0}（共 {1} 位）：距离在 k 以内即归为一组，不核实</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/progress.py" line="63" />
        <source>k={0} of {1} bits proposes candidates; their text decides</source>
        <translation>k={0}（共 {1} 位）提出候选，由文本决定</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="233" />
        <source>Nothing to scan</source>
        <translation>没有可扫描的内容</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="234" />
        <source>Add at least one folder first.</source>
        <translation>请先至少添加一个文件夹。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="245" />
        <source>Listing files…</source>
        <translation>正在列出文件…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="254" />
        <source>Cancel the scan?</source>
        <translation>取消扫描？</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="255" />
        <source>The scan has run for a while. Cancel it? Files fingerprinted so far are kept and grouped.</source>
        <translation>扫描已经进行了一段时间。要取消吗？已经计算指纹的文件会保留并分组。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="261" />
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/progress.py" line="30" />
        <source>Listing files: {0} found
{1}</source>
        <translation>正在列出文件：已找到 {0} 个
{1}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/progress.py" line="37" />
        <source>{0} of {1} files, {2:.1f} MB/s, elapsed {3}, remaining {4}
{5}</source>
        <translation>{0} / {1} 个文件，{2:.1f} MB/s，已用 {3}，剩余 {4}
{5}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/progress.py" line="45" />
        <source>Cancelled: {0} files fingerprinted before the cancel are kept.</source>
        <translation>已取消：保留了取消前已计算指纹的 {0} 个文件。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/progress.py" line="46" />
        <source>Scanned {0} files in {1}.</source>
        <translation>扫描了 {0} 个文件，用时 {1}。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="279" />
        <source>The scan failed.</source>
        <translation>扫描失败。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="280" />
        <source>Scan failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="309" />
        <source>Grouping {0} files…</source>
        <translation>正在对 {0} 个文件分组…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/progress.py" line="52" />
        <source>{0} groups, {1} files in groups, {2} marked ({3}); {4} files scanned, {5} problems</source>
        <translation>{0} 组，组内 {1} 个文件，已标记 {2} 个（{3}）；共扫描 {4} 个文件，{5} 个问题</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="351" />
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="352" />
        <source>Reveal in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="353" />
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/window.py" line="359" />
        <source>simdup finds near-duplicate text files with SimHash fingerprints: re-encoded, re-wrapped or lightly edited copies that byte-hash tools miss.

Index: {0}</source>
        <translation>simdup 用 SimHash 指纹查找近似重复的文本文件：换了编码、换了排版或略有修改的副本，按字节比较的工具找不到它们。

索引：{0}</translation>
    </message>
</context>
<context>
    <name>ProblemsModel</name>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="157" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="157" />
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/tree.py" line="158" />
        <source>Path</source>
        <translation>路径</translation>
    </message>
</context>
<context>
    <name>ReportDialog</name>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="29" />
        <source>What happened</source>
        <translation>操作结果</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="44" />
        <source>Journal: {0}</source>
        <translation>操作日志：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/actions_ui.py" line="45" />
        <source>Nothing to do.</source>
        <translation>没有需要处理的内容。</translation>
    </message>
</context>
<context>
    <name>ScanPanel</name>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="103" />
        <source>Folders to scan (drop folders here)</source>
        <translation>要扫描的文件夹（可把文件夹拖到这里）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="104" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="105" />
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="106" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="107" />
        <source>Text similarity at least</source>
        <translation>文本相似度至少</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="107" />
        <source>Verify</source>
        <translation>核实方式</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="108" />
        <source>Fingerprint size (bits)</source>
        <translation>指纹位数</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="108" />
        <source>Candidate distance k</source>
        <translation>候选距离 k</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="109" />
        <source>Features</source>
        <translation>特征</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="109" />
        <source>Grouping</source>
        <translation>分组方式</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="110" />
        <source>Include patterns</source>
        <translation>包含模式</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="110" />
        <source>Exclude patterns</source>
        <translation>排除模式</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="111" />
        <source>Minimum size</source>
        <translation>最小大小</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="114" />
        <source>e.g. *.txt *.md (empty: all text files)</source>
        <translation>如 *.txt *.md（留空：所有文本文件）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="115" />
        <source>e.g. *.log build</source>
        <translation>如 *.log build</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="116" />
        <source>shingles: words and word pairs, TF-IDF weighted (best measured accuracy); tokens: words only; topk: the seeds' top-K keywords</source>
        <translation>shingles：词语和相邻词对，TF-IDF 加权（实测准确率最高）；tokens：只用词语；topk：原文的前 K 个关键词</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="119" />
        <source>With SimHash only: linked joins files by any chain of near pairs; strict keeps every pair in a group within k</source>
        <translation>仅 SimHash 时：linked 把由近邻对连成链的文件归为一组；strict 要求组内每对都在 k 以内</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="122" />
        <source>text similarity (recommended)</source>
        <translation>文本相似度（推荐）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="123" />
        <source>SimHash only (for comparison)</source>
        <translation>仅 SimHash（用于比较）</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="125" />
        <source>The fingerprint size and distance k only propose candidate pairs. With text similarity, each candidate is checked: a file joins a group when its text (5-gram Jaccard of the normalised text) is at least the threshold similar to the group's reference (★). SimHash only groups by fingerprint distance alone.</source>
        <translation>指纹位数和距离 k 只提出候选文件对。选择文本相似度时，每个候选都会核实：文件的文本（规范化文本的5 字片段 Jaccard）与本组参照文件（★）的相似度达到阈值时才加入该组。仅 SimHash 只按指纹距离分组。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="130" />
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="131" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/scan_panel.py" line="224" />
        <source>Add a folder to scan</source>
        <translation>添加要扫描的文件夹</translation>
    </message>
</context>
<context>
    <name>TextDiffView</name>
    <message>
        <location filename="../../simdup_gui/app/textdiffview.py" line="39" />
        <source>Load more of both files</source>
        <translation>加载两个文件的更多内容</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/app/textdiffview.py" line="41" />
        <source>Select a file to compare it with the representative.</source>
        <translation>选择一个文件，与代表文件比较。</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/details.py" line="107" />
        <source>cannot read: {0}</source>
        <translation>无法读取：{0}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/details.py" line="108" />
        <source>{0}, line endings {1}, {2}</source>
        <translation>{0}，换行符 {1}，{2}</translation>
    </message>
    <message>
        <location filename="../../simdup_gui/core/presenters/details.py" line="110" />
        <source> (first part shown)</source>
        <translation>（只显示开头部分）</translation>
    </message>
</context>
</TS>