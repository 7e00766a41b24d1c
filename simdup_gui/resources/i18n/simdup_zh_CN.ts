<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="zh_CN">
<context>
    <name>AccuracyModel</name>
    <message>
        <location filename="../../core/presenters/lab.py" line="31" />
        <source>bits</source>
        <translation>位数</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="31" />
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="32" />
        <source>precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="33" />
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="33" />
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="34" />
        <source>TP</source>
        <translation>正确检出</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="34" />
        <source>FP</source>
        <translation>误报</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="35" />
        <source>FN</source>
        <translation>漏报</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="36" />
        <source>chance/file</source>
        <translation>随机匹配/文件</translation>
    </message>
</context>
<context>
    <name>AccuracyTab</name>
    <message>
        <location filename="../../app/accuracy.py" line="179" />
        <source>Folder of labelled text files</source>
        <translation>带标注的文本文件夹</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="180" />
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="181" />
        <source>Synthetic manifest (manifest.json)</source>
        <translation>合成语料清单（manifest.json）</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="182" />
        <source>CSV of known duplicates</source>
        <translation>已知重复文件的 CSV</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="183" />
        <source>Reference: exact Jaccard ≥ threshold</source>
        <translation>参照：精确 Jaccard ≥ 阈值</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="184" />
        <source>Generate a synthetic corpus</source>
        <translation>生成合成语料</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="186" />
        <source>CSV: group,path or path_a,path_b,label</source>
        <translation>CSV：group,path 或 path_a,path_b,label</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="187" />
        <source>CSV…</source>
        <translation>CSV…</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="188" />
        <source>Jaccard ≥ </source>
        <translation>Jaccard ≥ </translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="189" />
        <source> documents</source>
        <translation> 篇文档</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="190" />
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="191" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="193" />
        <source>Choose a corpus and its truth, then press Run.</source>
        <translation>选择语料和标注来源，然后点击“运行”。</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="194" />
        <source>Corpus:</source>
        <translation>语料：</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="195" />
        <source>Truth:</source>
        <translation>标注：</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="196" />
        <source>Features:</source>
        <translation>特征：</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="200" />
        <source>{0} bits: P, R, F1 and chance matches against k</source>
        <translation>{0} 位：P、R、F1 与随机匹配随 k 的变化</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="201" />
        <source>Best F1 per fingerprint size</source>
        <translation>各指纹位数的最佳 F1</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="202" />
        <source>Precision-recall curves (one point per k)</source>
        <translation>精确率-召回率曲线（每个 k 一个点）</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="203" />
        <source>Export CSV…</source>
        <translation>导出 CSV…</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="204" />
        <source>Export PNG…</source>
        <translation>导出 PNG…</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="206" />
        <source>Per-size charts: &lt;b style='color:{0}'&gt;precision&lt;/b&gt;, &lt;b style='color:{1}'&gt;recall&lt;/b&gt;, &lt;b style='color:{2}'&gt;F1&lt;/b&gt; (left axis); &lt;b style='color:{3}'&gt;dashed: chance matches per file&lt;/b&gt; (right axis, log scale); &lt;b style='color:{4}'&gt;dotted: one random match per file&lt;/b&gt;. A red-tinted chart or row means random fingerprints already match more than once per file.</source>
        <translation>各位数的图：&lt;b style='color:{0}'&gt;精确率&lt;/b&gt;、&lt;b style='color:{1}'&gt;召回率&lt;/b&gt;、&lt;b style='color:{2}'&gt;F1&lt;/b&gt;（左轴）；&lt;b style='color:{3}'&gt;虚线：每个文件的随机匹配数&lt;/b&gt;（右轴，对数刻度）；&lt;b style='color:{4}'&gt;点线：每个文件一次随机匹配&lt;/b&gt;。偏红的图或行表示随机指纹平均已经匹配不止一次。</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="231" />
        <source>Corpus folder</source>
        <translation>语料文件夹</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="236" />
        <source>Known duplicates</source>
        <translation>已知的重复文件</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="237" />
        <location filename="../../app/accuracy.py" line="381" />
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="270" />
        <location filename="../../app/accuracy.py" line="284" />
        <source>An evaluation is already running</source>
        <translation>已有评估在运行</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="279" />
        <source>Not a folder: {0}</source>
        <translation>不是文件夹：{0}</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="295" />
        <source>Running…</source>
        <translation>运行中…</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="303" />
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="67" />
        <source>Generating the corpus</source>
        <translation>正在生成语料</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="68" />
        <source>Listing files</source>
        <translation>正在列出文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="69" />
        <location filename="../../core/presenters/lab.py" line="73" />
        <source>Fingerprinting</source>
        <translation>正在计算指纹</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="70" />
        <source>Reading texts for the reference</source>
        <translation>正在读取文本作为参照</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="71" />
        <source>Measuring reference similarity</source>
        <translation>正在计算参照相似度</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="72" />
        <source>Scoring every size and k</source>
        <translation>正在评估每种位数和 k</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="74" />
        <source>{0}: {1} of {2}</source>
        <translation>{0}：{1} / {2}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="92" />
        <source>synthetic manifest, measured J ≥ {0}</source>
        <translation>合成清单，实测 J ≥ {0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="93" />
        <source>synthetic manifest</source>
        <translation>合成清单</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="95" />
        <source>reference: exact Jaccard ≥ {0}</source>
        <translation>参照：精确 Jaccard ≥ {0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="96" />
        <source>CSV groups ({0})</source>
        <translation>CSV 分组（{0}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="97" />
        <source>CSV pairs ({0})</source>
        <translation>CSV 文件对（{0}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="110" />
        <source>Exact, no sampling: all {0} pairs of {1} files, {2} measured.</source>
        <translation>精确计算，未抽样：{1} 个文件的全部 {0} 对，实测 {2} 对。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="130" />
        <source> (verified groups: F1 {0:.2f} at k={1}; templates kept apart: F1 {2:.2f})</source>
        <translation>（验证后的分组：k={1} 时 F1 为 {0:.2f}；模板文档分开：F1 为 {2:.2f}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="140" />
        <source>. Red-tinted rows: more chance matches than one per file, so small fingerprints drown in coincidences.</source>
        <translation>。偏红的行：每个文件的随机匹配超过一次，位数少的指纹被巧合淹没。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="197" />
        <source>SimHash only</source>
        <translation>仅用 SimHash</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="199" />
        <source>verified</source>
        <translation>验证后</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="322" />
        <source>Failed: {0}</source>
        <translation>失败：{0}</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="326" />
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="116" />
        <source>{0} files, truth: {1}; {2} duplicate pairs. {3}</source>
        <translation>{0} 个文件，标注：{1}；{2} 对重复。{3}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="127" />
        <source>{0} bits: best F1 {1:.2f} at k={2}, {3} random matches per file</source>
        <translation>{0} 位：k={2} 时最佳 F1 为 {1:.2f}，每个文件 {3} 次随机匹配</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="134" />
        <source> (verified groups: F1 {0:.2f} at k={1})</source>
        <translation>（验证后的分组：k={1} 时 F1 为 {0:.2f}）</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="351" />
        <source>k (max Hamming distance)</source>
        <translation>k（最大海明距离）</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="352" />
        <source>chance matches/file</source>
        <translation>随机匹配/文件</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="357" />
        <location filename="../../core/presenters/lab.py" line="167" />
        <source>precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="356" />
        <location filename="../../core/presenters/lab.py" line="168" />
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="168" />
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="171" />
        <source>chance matches/file (log)</source>
        <translation>随机匹配/文件（对数）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="174" />
        <source>1 random match/file</source>
        <translation>每文件 1 次随机匹配</translation>
    </message>
    <message>
        <location filename="../../core/presenters/lab.py" line="186" />
        <location filename="../../core/presenters/lab.py" line="206" />
        <source>{0} bits</source>
        <translation>{0} 位</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="372" />
        <source>Nothing to export yet</source>
        <translation>还没有可导出的内容</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="380" />
        <source>Export CSV</source>
        <translation>导出 CSV</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="389" />
        <source>Export PNG</source>
        <translation>导出 PNG</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="390" />
        <source>PNG images (*.png)</source>
        <translation>PNG 图片 (*.png)</translation>
    </message>
    <message>
        <location filename="../../app/accuracy.py" line="392" />
        <source>Could not write {0}</source>
        <translation>无法写入 {0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="308" />
        <source>exact, no sampling: all {0} pairs of {1} files</source>
        <translation>精确计算，未抽样：{1} 个文件的全部 {0} 对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="309" />
        <source>prefix filtering at J &gt;= {0} gave {1} candidate pairs, {2} candidate pairs measured exactly after the size and position filters</source>
        <translation>在 J ≥ {0} 处做前缀过滤得到 {1} 个候选对，经大小和位置过滤后精确测量了 {2} 个候选对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="312" />
        <source>the other {0} pairs are provably below {1} (different)</source>
        <translation>其余 {0} 对可以证明低于 {1}（不同）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="313" />
        <source>{0} duplicate pairs, {1} grey-zone pairs ({2} &lt;= J &lt; {3}) left out of the scores</source>
        <translation>{0} 对重复，{1} 对处于灰色地带（{2} ≤ J &lt; {3}），不计入评分</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="315" />
        <source>{0} duplicate pairs, no grey zone</source>
        <translation>{0} 对重复，没有灰色地带</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="316" />
        <source>{0} s ({1} s shingling, {2} s join)</source>
        <translation>{0} 秒（切片 {1} 秒，连接 {2} 秒）</translation>
    </message>
</context>
<context>
    <name>ActionsController</name>
    <message>
        <location filename="../../app/actions_ui.py" line="113" />
        <source>&amp;Mark</source>
        <translation>标记(&amp;M)</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="114" />
        <source>&amp;Actions</source>
        <translation>操作(&amp;A)</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="115" />
        <source>Mark all but one in each group, keeping the…</source>
        <translation>每组只保留一个，其余全部标记，保留…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="116" />
        <source>oldest file</source>
        <translation>最早的文件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="116" />
        <source>newest file</source>
        <translation>最新的文件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="117" />
        <source>largest file</source>
        <translation>最大的文件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="117" />
        <source>smallest file</source>
        <translation>最小的文件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="118" />
        <source>shortest path</source>
        <translation>路径最短的文件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="118" />
        <source>longest path</source>
        <translation>路径最长的文件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="121" />
        <source>copy in a preferred encoding…</source>
        <translation>指定编码的副本…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="122" />
        <source>copy under a preferred folder…</source>
        <translation>指定文件夹中的副本…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="123" />
        <source>Mark selected</source>
        <translation>标记所选</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="124" />
        <source>Unmark selected</source>
        <translation>取消标记所选</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="125" />
        <source>Invert marks</source>
        <translation>反选标记</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="126" />
        <source>Clear marks</source>
        <translation>清除标记</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="127" />
        <source>Reference folders (never marked)…</source>
        <translation>参考文件夹（从不标记）…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="128" />
        <source>Dry run: list what would happen, touch nothing</source>
        <translation>演练：只列出将要发生的操作，不改动任何文件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="129" />
        <source>Move marked files to…</source>
        <translation>把标记的文件移动到…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="130" />
        <source>Send marked files to the trash</source>
        <translation>把标记的文件移到回收站</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="131" />
        <source>Delete marked files permanently…</source>
        <translation>永久删除标记的文件…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="132" />
        <source>Replace marked files with hard links to the kept copy</source>
        <translation>把标记的文件替换为指向保留副本的硬链接</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="133" />
        <source>Replace marked files with symbolic links to the kept copy</source>
        <translation>把标记的文件替换为指向保留副本的符号链接</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="135" />
        <source>Undo the last action</source>
        <translation>撤销上一次操作</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="136" />
        <source>Resume an interrupted action from its journal…</source>
        <translation>从操作日志继续被中断的操作…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="137" />
        <source>Roll back an action from its journal…</source>
        <translation>从操作日志回滚一次操作…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="138" />
        <source>Release held originals…</source>
        <translation>释放保留的原件…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="140" />
        <source>Free the space of the originals that replacing files with links holds for undo, where the kept copy still has their bytes</source>
        <translation>释放“替换为链接”为撤销而保留的原件所占的空间（仅限保留的副本仍有相同字节的原件）</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="142" />
        <source>Clear the fingerprint cache</source>
        <translation>清除指纹缓存</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="171" />
        <source>{0} files in {1} groups share mostly template text with their group's reference: text found in many other files, like man pages of one generator or one licence in many projects. They may not be copies.

Leave them unmarked (each keeps its own copies apart), or mark them like the others?</source>
        <translation>{1} 个组中有 {0} 个文件与本组参照文件共有的文字大多是模板：许多其他文件里也有这些文字，例如同一生成器的手册页、许多项目共用的许可证。它们可能不是副本。

不标记它们（各自的副本仍会分别处理），还是像其他文件一样标记？</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="176" />
        <source>Template text</source>
        <translation>模板文字</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="177" />
        <source>Leave them unmarked</source>
        <translation>不标记它们</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="177" />
        <source>Mark them too</source>
        <translation>也标记它们</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="181" />
        <source>Preferred encoding</source>
        <translation>首选编码</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="182" />
        <source>Keep the copy in this encoding:</source>
        <translation>保留此编码的副本：</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="187" />
        <source>Keep the copies under this folder</source>
        <translation>保留此文件夹中的副本</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="205" />
        <source>Reference folders</source>
        <translation>参考文件夹</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="206" />
        <source>Files under these folders are never marked (one folder per line):</source>
        <translation>这些文件夹中的文件永远不会被标记（每行一个文件夹）：</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="221" />
        <source>Move marked files to</source>
        <translation>把标记的文件移动到</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="235" />
        <source>Delete {0} ({1}) permanently? This cannot be undone.</source>
        <translation>永久删除 {0}（{1}）？此操作无法撤销。</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="236" />
        <source>Delete {0}</source>
        <translation>删除 {0}</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="238" />
        <source>Send {0} ({1}) to the trash?</source>
        <translation>把 {0}（{1}）移到回收站？</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="239" />
        <source>Send {0} to the trash</source>
        <translation>把 {0} 移到回收站</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="241" />
        <source>Replace {0} ({1}) with links to their kept copy? Only exact (byte-identical) copies are replaced; near duplicates are skipped. Undo puts the originals back.</source>
        <translation>把 {0}（{1}）替换为指向其保留副本的链接？只替换完全相同（逐字节一致）的副本，近似重复的会跳过。撤销可放回原件。</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="244" />
        <source>Replace {0}</source>
        <translation>替换 {0}</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="246" />
        <source>Move {0} ({1}) to {2}?</source>
        <translation>把 {0}（{1}）移动到 {2}？</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="247" />
        <source>Move {0}</source>
        <translation>移动 {0}</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="334" />
        <source>Delete {0} ({1})? Each was replaced by a link, and its kept copy has the same bytes now. Undo can then no longer put these originals back; the links stay.</source>
        <translation>删除 {0}（{1}）？每个原件都已被替换为链接，且保留的副本现在具有相同的字节。此后撤销将无法放回这些原件；链接会保留。</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="337" />
        <source>Release 1 original</source>
        <translation>释放 1 个原件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="270" />
        <location filename="../../app/actions_ui.py" line="372" />
        <source>Refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="275" />
        <source>Nothing marked</source>
        <translation>没有标记的文件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="276" />
        <source>Mark the copies to act on first.</source>
        <translation>请先标记要处理的副本。</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="225" />
        <source>Folder layout in {0}</source>
        <translation>{0} 中的文件夹结构</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="226" />
        <source>Keep each file's folders below its scan root, or put every file directly in {0} (a name that clashes gets a unique name)?</source>
        <translation>保留每个文件在扫描根目录下的文件夹结构，还是把所有文件直接放进 {0}（重名的文件会得到唯一的名称）？</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="228" />
        <source>Keep folder structure</source>
        <translation>保留文件夹结构</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="228" />
        <source>Put all files in one folder</source>
        <translation>全部放进同一个文件夹</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="249" />
        <source>Confirm</source>
        <translation>确认</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="288" />
        <source>Cannot undo now: wait for the scan or action under way to finish.</source>
        <translation>现在无法撤销：请等待正在进行的扫描或操作完成。</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="290" />
        <source>Undoing the last action…</source>
        <translation>正在撤销上一次操作…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="295" />
        <source>Journals (*.jsonl)</source>
        <translation>操作日志 (*.jsonl)</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="298" />
        <source>Resume which action?</source>
        <translation>继续哪一次操作？</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="303" />
        <source>Roll back which action?</source>
        <translation>回滚哪一次操作？</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="318" />
        <source>Cannot release now: wait for the scan or action under way to finish.</source>
        <translation>现在无法释放：请等待正在进行的扫描或操作完成。</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="320" />
        <source>Checking the held originals…</source>
        <translation>正在检查保留的原件…</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="331" />
        <source>1 held original</source>
        <translation>1 个保留的原件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="331" />
        <source>{0} held originals</source>
        <translation>{0} 个保留的原件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="333" />
        <source>Release held originals</source>
        <translation>释放保留的原件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="338" />
        <source>Release {0} originals</source>
        <translation>释放 {0} 个原件</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="339" />
        <source>Nothing released.</source>
        <translation>没有释放任何文件。</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="349" />
        <source>Cannot clear the cache</source>
        <translation>无法清空缓存</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="352" />
        <source>Cleared {0} cached fingerprints.</source>
        <translation>已清除 {0} 条缓存的指纹。</translation>
    </message>
    <message>
        <location filename="../../app/actions_ui.py" line="375" />
        <source>Action failed</source>
        <translation>操作失败</translation>
    </message>
</context>
<context>
    <name>BitDiffView</name>
    <message>
        <location filename="../../core/presenters/details.py" line="50" />
        <source>Reference</source>
        <translation>参照文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="50" />
        <source>Selected file</source>
        <translation>所选文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="51" />
        <source>Select a file in a group to compare its fingerprint with the group's reference.</source>
        <translation>在组中选择一个文件，将它的指纹与本组的参照文件比较。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="53" />
        <source>within k={0}: a candidate pair</source>
        <translation>在 k={0} 以内：候选文件对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="55" />
        <source>beyond k={0}: not proposed by SimHash</source>
        <translation>超过 k={0}：SimHash 不会提出</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="57" />
        <source>Hamming distance {0} of {1} bits, {2:.1%} of bits equal ({3}). Differing bits are red. The index splits the {1} bits into {4} blocks (blue lines); {5} of them match exactly (shaded): by the pigeonhole principle a pair within k differs in at most k blocks, so it shares at least {6} and the index finds it.</source>
        <translation>海明距离 {0}（共 {1} 位），{2:.1%} 的位相同（{3}）。不同的位标为红色。索引把 {1} 位分成 {4} 块（蓝线）；其中 {5} 块完全相同（加深）：根据抽屉原理，距离不超过 k 的两个指纹最多有 k 块不同，因此至少有 {6}，索引一定能找到它们。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="65" />
        <source>1 whole block</source>
        <translation>1 个完全相同的块</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="66" />
        <source>{0} whole blocks</source>
        <translation>{0} 个完全相同的块</translation>
    </message>
</context>
<context>
    <name>BitGrid</name>
    <message>
        <location filename="../../app/bitgrid.py" line="37" />
        <source>Select a file</source>
        <translation>请选择文件</translation>
    </message>
</context>
<context>
    <name>CatalogController</name>
    <message>
        <location filename="../../app/catalog_ui.py" line="42" />
        <source>Save catalog…</source>
        <translation>保存清单…</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="44" />
        <source>Keep what the scan knows of every file (not the texts), to compare with it while this drive is not plugged in</source>
        <translation>保存扫描所知的每个文件的信息（不含文本），以便在这个驱动器未接入时与它比较</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="46" />
        <source>Compare with catalog…</source>
        <translation>与清单比较…</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="47" />
        <source>Stop comparing with catalogs</source>
        <translation>停止与清单比较</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="48" />
        <source>copy in a catalog (mark the copies here but one)</source>
        <translation>清单中的副本（标记本机上除一份外的副本）</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="49" />
        <source>copy in a catalog, and mark the last copy here too…</source>
        <translation>清单中的副本，本机上的最后一份也标记…</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="58" />
        <source>Save catalog</source>
        <translation>保存清单</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="59" />
        <location filename="../../app/catalog_ui.py" line="83" />
        <source>Catalogs (*{0})</source>
        <translation>清单 (*{0})</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="70" />
        <source>Catalogued {0} files in {1}</source>
        <translation>已将 {0} 个文件记入清单 {1}</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="72" />
        <source>Cannot save the catalog</source>
        <translation>无法保存清单</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="82" />
        <source>Compare with catalog</source>
        <translation>与清单比较</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="95" />
        <location filename="../../app/catalog_ui.py" line="105" />
        <source>Cannot compare with the catalog</source>
        <translation>无法与清单比较</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="97" />
        <source>Reading the catalog {0}…</source>
        <translation>正在读取清单 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="107" />
        <source>Comparing with the catalog {0}: {1} files of a drive that is not connected</source>
        <translation>正在与清单 {0} 比较：未连接的驱动器上的 {1} 个文件</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="128" />
        <source>Mark the last copies?</source>
        <translation>标记最后一份？</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="129" />
        <source>{0} of the files to mark are the last copy on this computer: only a catalog says that a copy with the same bytes is on a drive that is not connected, and simdup cannot check that it still is. An action on them removes the last copy here.

Mark them too?</source>
        <translation>要标记的文件中有 {0} 个是本机上的最后一份：只有清单表明未连接的驱动器上有字节完全相同的副本，而 simdup 无法核实它是否仍在。对它们执行操作会去掉本机上的最后一份。

也标记它们吗？</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="134" />
        <source>Mark the last copies too</source>
        <translation>也标记最后一份</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="150" />
        <source>The last copy here</source>
        <translation>本机上的最后一份</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="151" />
        <source>{0} marked files have no other copy on this computer. Only the catalog {1} says that a copy with the same bytes is on a drive that is not connected; simdup cannot check that it still is.

Let them go on the catalog's word?</source>
        <translation>{0} 个已标记的文件在本机上没有其他副本。只有清单 {1} 表明未连接的驱动器上有字节完全相同的副本；simdup 无法核实它是否仍在。

仅凭清单就处理它们吗？</translation>
    </message>
    <message>
        <location filename="../../app/catalog_ui.py" line="155" />
        <source>Let them go</source>
        <translation>处理它们</translation>
    </message>
</context>
<context>
    <name>Count</name>
    <message>
        <location filename="../../core/presenters/i18n.py" line="33" />
        <source>1 file</source>
        <translation>1 个文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/i18n.py" line="33" />
        <source>{0} files</source>
        <translation>{0} 个文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/i18n.py" line="38" />
        <source>1 pair</source>
        <translation>1 对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/i18n.py" line="38" />
        <source>{0} pairs</source>
        <translation>{0} 对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/i18n.py" line="43" />
        <source>1 group</source>
        <translation>1 组</translation>
    </message>
    <message>
        <location filename="../../core/presenters/i18n.py" line="43" />
        <source>{0} groups</source>
        <translation>{0} 组</translation>
    </message>
</context>
<context>
    <name>Desktop</name>
    <message>
        <location filename="../../app/desktop.py" line="24" />
        <source>It is in a catalog, on a drive that is not connected: there is nothing to open here.</source>
        <translation>它在清单中，位于未连接的驱动器上：这里没有可打开的文件。</translation>
    </message>
    <message>
        <location filename="../../app/desktop.py" line="30" />
        <source>Nothing opened {0}: no desktop application is set for it here (or no desktop is running). Open it from your file manager.</source>
        <translation>没有程序打开 {0}：这里没有为它设置桌面应用程序（或者没有运行桌面）。请在文件管理器中打开它。</translation>
    </message>
</context>
<context>
    <name>DryRunBadge</name>
    <message>
        <location filename="../../app/dry_run.py" line="34" />
        <source>Dry run: actions change nothing</source>
        <translation>演练：操作不改动任何文件</translation>
    </message>
    <message>
        <location filename="../../app/dry_run.py" line="35" />
        <source>Actions only list what they would do. Click to turn dry run off (Actions menu).</source>
        <translation>操作只列出将会做什么。点击即可关闭演练（操作菜单）。</translation>
    </message>
</context>
<context>
    <name>ExcerptsModel</name>
    <message>
        <location filename="../../app/excerpts_ui.py" line="41" />
        <source>Excerpt</source>
        <translation>摘录</translation>
    </message>
    <message>
        <location filename="../../app/excerpts_ui.py" line="41" />
        <source>Is inside</source>
        <translation>所在文件</translation>
    </message>
    <message>
        <location filename="../../app/excerpts_ui.py" line="41" />
        <source>Contained</source>
        <translation>包含比例</translation>
    </message>
    <message>
        <location filename="../../app/excerpts_ui.py" line="51" />
        <source>{0} of the text of {1} is inside {2}</source>
        <translation>{1} 的文本有 {0} 包含在 {2} 中</translation>
    </message>
</context>
<context>
    <name>ExcerptsTab</name>
    <message>
        <location filename="../../app/excerpts_ui.py" line="97" />
        <source>Excerpts ({0})</source>
        <translation>摘录（{0}）</translation>
    </message>
</context>
<context>
    <name>FilesController</name>
    <message>
        <location filename="../../app/files_ui.py" line="51" />
        <source>Save results…</source>
        <translation>保存结果…</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="52" />
        <source>Load results…</source>
        <translation>载入结果…</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="53" />
        <source>Export groups as</source>
        <translation>导出分组为</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="57" />
        <source>Save results</source>
        <translation>保存结果</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="71" />
        <source>Still writing the last file…</source>
        <translation>上一个文件仍在写入…</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="80" />
        <source>Writing {0}…</source>
        <translation>正在写入 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="93" />
        <location filename="../../app/files_ui.py" line="95" />
        <source>Cannot save</source>
        <translation>无法保存</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="98" />
        <source>Exported {0} groups to {1}</source>
        <translation>已将 {0} 组导出到 {1}</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="99" />
        <source>Saved the results to {0}</source>
        <translation>结果已保存到 {0}</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="111" />
        <source>Load results</source>
        <translation>载入结果</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="122" />
        <location filename="../../app/files_ui.py" line="136" />
        <location filename="../../app/files_ui.py" line="145" />
        <source>Cannot load</source>
        <translation>无法载入</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="123" />
        <source>{0} is not used: {1}</source>
        <translation>未使用 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="139" />
        <source>Loading {0}…</source>
        <translation>正在载入 {0}…</translation>
    </message>
    <message>
        <location filename="../../app/files_ui.py" line="167" />
        <source>Export groups</source>
        <translation>导出分组</translation>
    </message>
</context>
<context>
    <name>GroupTreeModel</name>
    <message>
        <location filename="../../core/presenters/tree.py" line="34" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="34" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="35" />
        <source>Size</source>
        <translation>大小</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="35" />
        <source>Modified</source>
        <translation>修改时间</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="36" />
        <source>Encoding</source>
        <translation>编码</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="36" />
        <source>Distance</source>
        <translation>距离</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="37" />
        <source>Similarity</source>
        <translation>相似度</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="38" />
        <source>Δ Size</source>
        <translation>Δ 大小</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="39" />
        <source>Δ Modified</source>
        <translation>Δ 修改时间</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="40" />
        <source>Closest</source>
        <translation>最相近</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="210" />
        <source>exact text</source>
        <translation>文字完全相同</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="211" />
        <source>near-duplicates</source>
        <translation>近似重复</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="212" />
        <source>Group {0}: {1} files, {2}</source>
        <translation>第 {0} 组：{1} 个文件，{2}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="215" />
        <source>{0} share mostly template text</source>
        <translation>{0} 个主要是模板文字</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="219" />
        <source>also similar to group {0}</source>
        <translation>也与第 {0} 组相似</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="222" />
        <source>{0} in a catalog</source>
        <translation>{0} 个在清单中</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="235" />
        <source>in catalog {0} (not connected)</source>
        <translation>在清单 {0} 中（未连接）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="252" />
        <source>too short</source>
        <translation>太短</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="257" />
        <source>template</source>
        <translation>模板</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="260" />
        <source>also group {0}</source>
        <translation>另见第 {0} 组</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="286" />
        <source>In catalog {0}, on a drive that is not connected: only its fingerprint and sketch are known, so its similarity is estimated, and it is never marked, moved or deleted</source>
        <translation>在清单 {0} 中，位于未连接的驱动器上：只知道它的指纹和草图，因此相似度是估计值；它从不会被标记、移动或删除</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="292" />
        <source>Reference of the group: every member is compared with it</source>
        <translation>本组的参照文件：每个成员都与它比较</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="295" />
        <source>Same normalised text as the reference</source>
        <translation>规范化后的文字与参照文件完全相同</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="297" />
        <source>measured from both files</source>
        <translation>由两个文件实测</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="298" />
        <source>estimated from sketches</source>
        <translation>由草图估计</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="299" />
        <source>Text similarity to the reference: {0:.1%} ({1})</source>
        <translation>与参照文件的文本相似度：{0:.1%}（{1}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="303" />
        <source>Closest member: {0} ({1:.1%})</source>
        <translation>最相近的成员：{0}（{1:.1%}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="306" />
        <source>Also similar to {0} in group {1} ({2:.1%}): a near-duplicate shown in that group (each file is in one group only)</source>
        <translation>也与第 {1} 组的 {0} 相似（{2:.1%}）：一个近似重复文件，显示在那一组中（每个文件只属于一个组）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="313" />
        <source>Same text (≡) as {0} other member(s): {1}</source>
        <translation>与另外 {0} 个成员文字相同（≡）：{1}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="318" />
        <source>Most of the text it shares with the reference is a template found in {0} other documents (pages of one generator, one licence in many projects): maybe not a copy. Keep rules leave it unmarked unless you say otherwise.</source>
        <translation>它与参照文件共有的文字大多是模板，另有 {0} 个文档也含有（同一生成器的手册页、许多项目共用的许可证）：它可能不是副本。除非你同意，保留规则不会标记它。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="325" />
        <source>Too short to compare (five characters or fewer): grouped only with the same text</source>
        <translation>太短，无法比较（不超过五个字符）：只与相同文本归为一组</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="329" />
        <source>Short text: few words, so the fingerprint is less reliable</source>
        <translation>文本很短：词语少，指纹不太可靠</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="360" />
        <source>{0} groups</source>
        <translation>{0} 组</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="361" />
        <source>{0} of {1} groups shown</source>
        <translation>显示 {0} / {1} 组</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="362" />
        <source>{0} marked, {1} to reclaim</source>
        <translation>已标记 {0} 个，可腾出 {1}</translation>
    </message>
</context>
<context>
    <name>GroupsView</name>
    <message>
        <location filename="../../app/groups_view.py" line="102" />
        <source>Filter by name or folder</source>
        <translation>按名称或文件夹筛选</translation>
    </message>
    <message>
        <location filename="../../app/groups_view.py" line="103" />
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <location filename="../../app/groups_view.py" line="104" />
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <location filename="../../app/groups_view.py" line="105" />
        <source>Reset column widths</source>
        <translation>重置列宽</translation>
    </message>
</context>
<context>
    <name>IgnoreListDialog</name>
    <message>
        <location filename="../../app/results_ui.py" line="37" />
        <source>Ignore list</source>
        <translation>忽略列表</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="45" />
        <source>Remove selected</source>
        <translation>移除所选</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="47" />
        <source>Clear all</source>
        <translation>全部清除</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="59" />
        <source>file: {0}</source>
        <translation>文件：{0}</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="63" />
        <source>pair: {0}  ↔  {1}</source>
        <translation>文件对：{0}  ↔  {1}</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="66" />
        <source>{0} and {1} are never shown as duplicates. Kept in {2}</source>
        <translation>{0}和 {1}不再显示为重复。保存在 {2}</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="75" />
        <source>Cannot change the ignore list</source>
        <translation>无法修改忽略列表</translation>
    </message>
</context>
<context>
    <name>IndexPlan</name>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="151" />
        <source>block index: {0} blocks, {1} tables keyed on {2} bits, {3} candidates, {4} pairs</source>
        <translation>分块索引：{0} 个块，{1} 张以 {2} 位为键的表，{3} 个候选，{4} 对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="153" />
        <source>multi-probe block index: {0} blocks, each pair has a block within {1} bits</source>
        <translation>多探测分块索引：{0} 个块，每对至少有一个块相差不超过 {1} 位</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="155" />
        <source>{0} bucket look-ups per fingerprint, {1} candidates, {2} pairs</source>
        <translation>每个指纹查找 {0} 个桶，{1} 个候选，{2} 对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="157" />
        <source>vectorised scan of {0} fingerprints ({1}), {2} pairs</source>
        <translation>向量化扫描 {0} 个指纹（{1}），{2} 对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="158" />
        <source>exact matches only (k=0), {0} distinct fingerprints</source>
        <translation>只找完全相同的指纹（k=0），{0} 个不同的指纹</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="159" />
        <source>few fingerprints: a scan is cheapest</source>
        <translation>指纹少，扫描最省时</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="160" />
        <source>k={0} is too large at {1} bits for blocks to beat a scan</source>
        <translation>{1} 位时 k={0} 太大，分块索引不如扫描</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="161" />
        <source>forced</source>
        <translation>指定</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="162" />
        <source>short texts by their sketches: {0} pairs, {1} new</source>
        <translation>短文本按草图比较：{0} 对，新增 {1} 对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="163" />
        <source>{0} candidate pairs, {1} verified at the threshold ({2} measured from the files, {3} from sketches)</source>
        <translation>{0} 个候选对，{1} 对达到阈值（{2} 对由文件实测，{3} 对由草图估计）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="165" />
        <source>{0} pairs kept apart (a shared template)</source>
        <translation>{0} 对被分开（共用模板）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="166" />
        <source>{0} pairs flagged (a shared template)</source>
        <translation>{0} 对已标注（共用模板）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="167" />
        <source>SimHash k={0} ({1}) plus sketch LSH ({2} bands of {3}) within k={4}: {5} + {6} candidate pairs, {7} distinct</source>
        <translation>SimHash k={0}（{1}）加上草图 LSH（{2} 个带，每带 {3} 行），k={4} 以内：{5} + {6} 个候选对，其中 {7} 个不同</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="169" />
        <source>SimHash k={0} ({1}) plus sketch LSH on the Dask cluster ({2} bands of {3}) within k={4}: {5} + {6} candidate pairs, {7} distinct</source>
        <translation>SimHash k={0}（{1}）加上在 Dask 集群上的草图 LSH（{2} 个带，每带 {3} 行），k={4} 以内：{5} + {6} 个候选对，其中 {7} 个不同</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="172" />
        <source>candidate distance lowered from {0} to {1}: at k={0} about {2} pairs of these files would be candidates (more than {3})</source>
        <translation>候选距离从 {0} 降到 {1}：k={0} 时这些文件约有 {2} 对会成为候选（超过 {3}）</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../app/window.py" line="170" />
        <source>simdup: near-duplicate text files</source>
        <translation>simdup：近似重复的文本文件</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="179" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="180" />
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="173" />
        <source>Duplicates</source>
        <translation>重复文件</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="174" />
        <location filename="../../app/window.py" line="370" />
        <source>Problems ({0})</source>
        <translation>问题（{0}）</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="176" />
        <source>Accuracy lab</source>
        <translation>准确率实验</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="178" />
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="181" />
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="182" />
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="183" />
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="184" />
        <location filename="../../app/window.py" line="389" />
        <source>About simdup</source>
        <translation>关于 simdup</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="193" />
        <source>Ready.</source>
        <translation>就绪。</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="276" />
        <source>The scan has run for a while. Cancel it? The results shown now stay as they are; a first scan shows the files fingerprinted so far.</source>
        <translation>扫描已经进行了一段时间。要取消吗？当前显示的结果保持不变；首次扫描会显示已经计算指纹的文件。</translation>
    </message>
    <message>
        <location filename="../../app/i18n.py" line="99" />
        <source>Cannot load the {0} translation, so the interface stays in English: {1}</source>
        <translation>无法加载{0}翻译，界面保持英文：{1}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="118" />
        <source>k={0} of {1} bits: files within k are grouped, unchecked</source>
        <translation>k={0}（共 {1} 位）：距离在 k 以内即归为一组，不核实</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="120" />
        <source>k={0} of {1} bits proposes candidates; their text decides</source>
        <translation>k={0}（共 {1} 位）提出候选，由文本决定</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="248" />
        <source>Nothing to scan</source>
        <translation>没有可扫描的内容</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="249" />
        <source>Add at least one folder first.</source>
        <translation>请先至少添加一个文件夹。</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="253" />
        <source>Check the settings</source>
        <translation>请检查设置</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="266" />
        <source>Listing files…</source>
        <translation>正在列出文件…</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="275" />
        <source>Cancel the scan?</source>
        <translation>取消扫描？</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="282" />
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="33" />
        <source>Listing files: {0} found
{1}</source>
        <translation>正在列出文件：已找到 {0} 个
{1}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="36" />
        <source>Preparing the fast code, once after an install (about a minute); later scans start at once…</source>
        <translation>正在准备快速代码，安装后只需一次（约一分钟）；之后的扫描会立即开始…</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="43" />
        <source>{0} of {1} files, elapsed {2}
{3}</source>
        <translation>{0} / {1} 个文件，已用 {2}
{3}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="47" />
        <source>{0} of {1} files, {2:.1f} MB/s, elapsed {3}, remaining {4}
{5}</source>
        <translation>{0} / {1} 个文件，{2:.1f} MB/s，已用 {3}，剩余 {4}
{5}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="59" />
        <source>Grouping {0} files: finding candidate pairs…</source>
        <translation>正在分组 {0} 个文件：查找候选文件对…</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="62" />
        <source>Grouping: measuring {0} pairs near the threshold from the files…</source>
        <translation>正在分组：从文件实测 {0} 对接近阈值的文件…</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="66" />
        <source>Grouping: {0} of {1} pairs near the threshold measured from the files, remaining {2}</source>
        <translation>正在分组：已从文件实测 {0}/{1} 对接近阈值的文件，剩余 {2}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="70" />
        <source>Grouping: making groups from {0} verified pairs…</source>
        <translation>正在分组：用 {0} 对已验证的文件组成分组…</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="77" />
        <source>Cancelled: the previous results are kept as they were ({0} groups, {1} marked); nothing of the cancelled scan replaced them.</source>
        <translation>已取消：之前的结果保持不变（{0} 组，已标记 {1} 个）；取消的扫描没有替换它们。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="83" />
        <source>Cancelled, partial results: {0} fingerprinted before the cancel are shown; scan again for all of them.</source>
        <translation>已取消，结果不完整：显示取消前已计算指纹的 {0}；重新扫描可得到全部结果。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="85" />
        <source>Scanned {0} in {1}.</source>
        <translation>扫描了 {0}，用时 {1}。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="93" />
        <source>{0}, {1} in groups, {2} marked ({3}); {4} scanned, {5}</source>
        <translation>{0}，组内 {1}，已标记 {2} 个（{3}）；共扫描 {4}，{5}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="98" />
        <source>1 problem</source>
        <translation>1 个问题</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="99" />
        <source>{0} problems</source>
        <translation>{0} 个问题</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="101" />
        <source>; compared with the catalog {0} ({1})</source>
        <translation>；已与清单 {0}（{1}）比较</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="108" />
        <source>shingles</source>
        <translation>词语与词对</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="109" />
        <source>tokens</source>
        <translation>词语</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="110" />
        <source>topk</source>
        <translation>关键词</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="111" />
        <source>linked</source>
        <translation>链式</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="112" />
        <source>strict</source>
        <translation>严格</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="131" />
        <source>{0} files, more than a million: grouping them on this machine takes about 2 GB of memory a million files, more when many are alike. With a Dask scheduler their candidate step runs on the cluster.</source>
        <translation>{0} 个文件，超过一百万：在本机分组，每一百万个文件约需 2 GB 内存，相似文件多时更多。设置 Dask 调度器后，候选步骤在集群上运行。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="144" />
        <source>they are grouped as duplicates</source>
        <translation>它们会被归为重复</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="145" />
        <source>text similarity rejects them, but each costs time</source>
        <translation>文本相似度会排除它们，但每个都要花时间</translation>
    </message>
    <message>
        <location filename="../../core/presenters/progress.py" line="146" />
        <source>⚠ At {0} bits and k={1}, each of {2} files lies within k of about {3} unrelated files by chance: {4}. Choose a larger fingerprint size or a smaller k.</source>
        <translation>⚠ {0} 位、k={1} 时，{2} 个文件中的每一个都会偶然与大约 {3} 个无关文件的距离在 k 以内：{4}。请选择更大的指纹位数或更小的 k。</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="311" />
        <source>The scan failed.</source>
        <translation>扫描失败。</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="313" />
        <source>Scan failed</source>
        <translation>扫描失败</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="346" />
        <source>Grouping {0} files…</source>
        <translation>正在对 {0} 个文件分组…</translation>
    </message>
    <message>
        <location filename="../../app/window.py" line="390" />
        <source>simdup finds near-duplicate text files with SimHash fingerprints: re-encoded, re-wrapped or lightly edited copies that byte-hash tools miss.

Index: {0}</source>
        <translation>simdup 用 SimHash 指纹查找近似重复的文本文件：换了编码、换了排版或略有修改的副本，按字节比较的工具找不到它们。

索引：{0}</translation>
    </message>
</context>
<context>
    <name>PatternDialog</name>
    <message>
        <location filename="../../app/results_ui.py" line="93" />
        <source>Mark by name</source>
        <translation>按名称标记</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="95" />
        <source>Mark the files whose name matches (a pattern such as *.bak or *副本*; any case):</source>
        <translation>标记名称匹配的文件（模式如 *.bak 或 *副本*；不区分大小写）：</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="98" />
        <source>Regular expression</source>
        <translation>正则表达式</translation>
    </message>
</context>
<context>
    <name>PreferencesDialog</name>
    <message>
        <location filename="../../app/review_ui.py" line="45" />
        <source>Preferences</source>
        <translation>首选项</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="48" />
        <source>Custom command (Actions &gt; Open with the custom command):</source>
        <translation>自定义命令（操作 &gt; 用自定义命令打开）：</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="53" />
        <source>%a is the selected file, %b the reference of its group (for the reference itself, the member closest to it). For example: meld %a %b, kdiff3 %a %b, code --diff %a %b. The command runs without a shell: a file name with spaces or quotes stays one argument.</source>
        <translation>%a 是选中的文件，%b 是它所在组的参照文件（若选中的就是参照文件，则为与它最相近的成员）。例如：meld %a %b、kdiff3 %a %b、code --diff %a %b。命令不经过 shell 运行：含空格或引号的文件名仍是一个参数。</translation>
    </message>
</context>
<context>
    <name>ProblemsModel</name>
    <message>
        <location filename="../../core/presenters/tree.py" line="335" />
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="335" />
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="336" />
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="343" />
        <source>symbolic link not followed: tick "Follow symbolic links" in Settings and scan again to include it</source>
        <translation>未跟随符号链接：在“设置”中勾选“跟随符号链接”并重新扫描即可包含它</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="347" />
        <source>larger than the maximum size ({0}): raise "Maximum size" in Settings to include it</source>
        <translation>大于最大大小（{0}）：在“设置”中调高“最大大小”即可包含它</translation>
    </message>
    <message>
        <location filename="../../core/presenters/tree.py" line="351" />
        <source>smaller than the minimum size ({0}): lower "Minimum size" in Settings to include it</source>
        <translation>小于最小大小（{0}）：在“设置”中调低“最小大小”即可包含它</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="246" />
        <source>empty file (0 bytes)</source>
        <translation>空文件（0 字节）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="247" />
        <source>empty file</source>
        <translation>空文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="248" />
        <source>not fingerprinted</source>
        <translation>未计算指纹</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="249" />
        <source>binary content (NUL bytes)</source>
        <translation>二进制内容（含空字节）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="250" />
        <source>binary content (control bytes)</source>
        <translation>二进制内容（含控制字节）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="251" />
        <source>binary content ({0} NUL bytes after the first {1} bytes)</source>
        <translation>二进制内容（前 {1} 字节之后有 {0} 个空字节）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="252" />
        <source>binary or unknown encoding ({0} undecodable characters, best guess {1})</source>
        <translation>二进制或未知编码（{0} 个字符无法解码，最接近的猜测是 {1}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="254" />
        <source>no words to fingerprint (only spaces or punctuation)</source>
        <translation>没有可计算指纹的词语（只有空白或标点）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="255" />
        <source>permission denied</source>
        <translation>没有权限</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="256" />
        <source>vanished during the scan</source>
        <translation>扫描期间消失了</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="257" />
        <source>broken symbolic link</source>
        <translation>损坏的符号链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="258" />
        <source>symbolic link loop</source>
        <translation>符号链接循环</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="259" />
        <source>cannot open: {0}</source>
        <translation>无法打开：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="260" />
        <source>read error: {0}</source>
        <translation>读取出错：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="261" />
        <source>cannot stat: {0}</source>
        <translation>无法获取文件信息：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="262" />
        <source>cannot list folder: {0}</source>
        <translation>无法列出文件夹：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="263" />
        <source>cannot read root: {0}</source>
        <translation>无法读取扫描文件夹：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="264" />
        <source>not a regular file (FIFO, socket or device)</source>
        <translation>不是普通文件（管道、套接字或设备）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="265" />
        <source>not a regular file or folder</source>
        <translation>不是普通文件或文件夹</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="266" />
        <source>not read</source>
        <translation>未读取</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="267" />
        <source>too large to fingerprint in memory</source>
        <translation>太大，无法在内存中计算指纹</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="268" />
        <source>folder already visited through a symbolic link (a loop or an alias)</source>
        <translation>已经通过符号链接访问过的文件夹（循环或别名）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="270" />
        <source>not entered again</source>
        <translation>不再进入</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="271" />
        <source>same file as {0} (hard link or followed symlink)</source>
        <translation>与 {0} 是同一个文件（硬链接或跟随的符号链接）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="272" />
        <source>read once</source>
        <translation>只读取一次</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="273" />
        <source>catalog not compared: it was made with other fingerprint settings ({0}), so its fingerprints cannot be compared</source>
        <translation>未与清单比较：它是用其他指纹设置（{0}）制作的，因此无法比较其指纹</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="276" />
        <source>scan with the features setting {0} to compare with it</source>
        <translation>用特征设置 {0} 扫描即可与它比较</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="277" />
        <source>the worker processes could not be started ({0})</source>
        <translation>无法启动工作进程（{0}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="278" />
        <source>the worker processes keep ending as they start (the last exit code {0})</source>
        <translation>工作进程一启动就退出（最后的退出码 {0}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="280" />
        <source>the scan went on in its own process, more slowly</source>
        <translation>扫描改在本进程中继续，速度较慢</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="283" />
        <source>empty</source>
        <translation>空文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="284" />
        <source>binary</source>
        <translation>二进制</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="285" />
        <source>undecodable</source>
        <translation>无法解码</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="286" />
        <source>no text</source>
        <translation>无文字</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="287" />
        <source>unreadable</source>
        <translation>无法读取</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="288" />
        <source>vanished</source>
        <translation>已消失</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="289" />
        <source>special file</source>
        <translation>特殊文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="290" />
        <source>symbolic link</source>
        <translation>符号链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="291" />
        <source>link loop</source>
        <translation>链接循环</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="292" />
        <source>same file</source>
        <translation>同一文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="293" />
        <source>too large</source>
        <translation>太大</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="294" />
        <source>too small</source>
        <translation>太小</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="295" />
        <source>document</source>
        <translation>文档</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="296" />
        <source>cache</source>
        <translation>缓存</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="297" />
        <source>catalog</source>
        <translation>清单</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="298" />
        <source>error</source>
        <translation>错误</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <location filename="../../app/dialogs.py" line="53" />
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <location filename="../../app/dialogs.py" line="54" />
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>Reason</name>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="94" />
        <source>; </source>
        <translation>；</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="98" />
        <source>would become a hard link to {0}</source>
        <translation>将成为指向 {0} 的硬链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="99" />
        <source>would become a symbolic link to {0}</source>
        <translation>将成为指向 {0} 的符号链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="100" />
        <source>now a hard link to {0}</source>
        <translation>现在是指向 {0} 的硬链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="101" />
        <source>now a symbolic link to {0}</source>
        <translation>现在是指向 {0} 的符号链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="102" />
        <source>the original is held in {0} for undo</source>
        <translation>原件保留在 {0}，以便撤销</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="103" />
        <source>the original is held in {0} for undo (copied: another file system)</source>
        <translation>原件保留在 {0}，以便撤销（已复制：另一个文件系统）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="105" />
        <source>has {0} other hard link(s)</source>
        <translation>另有 {0} 个硬链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="106" />
        <source>no space is freed</source>
        <translation>不会释放空间</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="107" />
        <source>copied across file systems, verified, original removed</source>
        <translation>已跨文件系统复制并核实，原件已删除</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="108" />
        <source>undo cannot restore it on this platform: restore it from the system trash</source>
        <translation>在此平台上撤销无法恢复它：请从系统回收站中还原</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="110" />
        <source>cancelled before this file</source>
        <translation>处理此文件之前已取消</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="111" />
        <source>the last copy on this computer: only a catalog says a copy is on a drive that is not plugged in, and on a catalog's word a file is moved or trashed, never deleted permanently</source>
        <translation>这是本机上的最后一份：只有目录说未连接的驱动器上有一份；凭目录的说法，文件只会被移动或移到回收站，绝不会被永久删除</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="114" />
        <source>not byte-identical to any kept copy (a near duplicate): a link would lose its differences, so only exact copies are replaced by links</source>
        <translation>与任何保留的副本都不是逐字节相同（近似重复）：链接会丢失它的差异，所以只有完全相同的副本才会被替换为链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="117" />
        <source>not touched</source>
        <translation>未改动</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="118" />
        <source>another simdup is acting on it or on its kept copy right now (another window, user or machine)</source>
        <translation>另一个 simdup 正在处理它或它的保留副本（另一个窗口、用户或机器）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="120" />
        <source>not touched, so the two never take both copies</source>
        <translation>未改动，以免两者把两个副本都删掉</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="121" />
        <source>no unchanged kept copy remains ({0})</source>
        <translation>没有仍未改变的保留副本（{0}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="122" />
        <source>no unchanged byte-identical kept copy remains ({0})</source>
        <translation>没有仍未改变且逐字节相同的保留副本（{0}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="123" />
        <source>is the file to remove itself</source>
        <translation>就是要移除的文件本身</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="124" />
        <source>its kept copy {0} changed just now</source>
        <translation>它的保留副本 {0} 刚刚被改动</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="125" />
        <source>no longer exists</source>
        <translation>已不存在</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="126" />
        <source>is now a symbolic link</source>
        <translation>现在是符号链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="127" />
        <source>is no longer a regular file</source>
        <translation>已不是普通文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="128" />
        <source>size changed since the scan ({0} -&gt; {1} bytes)</source>
        <translation>扫描后大小已改变（{0} -&gt; {1} 字节）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="129" />
        <source>modified since the scan (modification time differs)</source>
        <translation>扫描后已修改（修改时间不同）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="130" />
        <source>content changed since the scan (hash differs)</source>
        <translation>扫描后内容已改变（哈希不同）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="131" />
        <source>already back (an earlier undo was cut off)</source>
        <translation>已经放回（之前的撤销被中断）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="132" />
        <source>finished an undo that was cut off</source>
        <translation>完成了一次被中断的撤销</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="133" />
        <source>restored, but its content had changed since the action</source>
        <translation>已恢复，但它的内容在操作后被改动过</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="134" />
        <source>deleted permanently</source>
        <translation>已永久删除</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="135" />
        <source>cannot be restored</source>
        <translation>无法恢复</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="136" />
        <source>finished from the journal after an interruption</source>
        <translation>中断后根据操作日志完成</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="138" />
        <source>the copy was removed</source>
        <translation>副本已删除</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="139" />
        <source>the copy {0} is gone already</source>
        <translation>副本 {0} 已不存在</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="140" />
        <source>the copy {0} was changed since it was made</source>
        <translation>副本 {0} 在复制后被修改过</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="141" />
        <source>{0} is no longer the copy simdup made</source>
        <translation>{0} 已不是 simdup 制作的副本</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="142" />
        <source>left it there</source>
        <translation>保留原处</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="143" />
        <source>its original {0} is not as it was ({1}), so the copy may be the last one of its text</source>
        <translation>它的原件 {0} 已与原来不同（{1}），此副本可能是该文本仅存的一份</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="145" />
        <source>the copy stays at {0}</source>
        <translation>副本保留在 {0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="146" />
        <source>{0} exists already: a rename never replaces a file</source>
        <translation>{0} 已存在：重命名从不替换文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="147" />
        <source>not renamed</source>
        <translation>未重命名</translation>
    </message>
</context>
<context>
    <name>RecentMenus</name>
    <message>
        <location filename="../../app/recent_ui.py" line="37" />
        <source>Recent folders</source>
        <translation>最近的文件夹</translation>
    </message>
    <message>
        <location filename="../../app/recent_ui.py" line="38" />
        <source>Recent results</source>
        <translation>最近的结果</translation>
    </message>
    <message>
        <location filename="../../app/recent_ui.py" line="64" />
        <source>(none yet)</source>
        <translation>（暂无）</translation>
    </message>
</context>
<context>
    <name>Refusal</name>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="179" />
        <source>{0} is in no group</source>
        <translation>{0} 不在任何组中</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="180" />
        <source>{0} exists already: a rename never replaces a file</source>
        <translation>{0} 已存在：重命名从不替换文件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="181" />
        <source>{0} has that name already</source>
        <translation>{0} 已经是这个名称</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="182" />
        <source>the new name is empty</source>
        <translation>新名称为空</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="183" />
        <source>{0} is not a file name (a name has no folder in it)</source>
        <translation>{0} 不是文件名（文件名中不能含文件夹）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="184" />
        <source>destination is not a folder: {0}</source>
        <translation>目标不是文件夹：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="185" />
        <source>{0} is not inside a scanned folder</source>
        <translation>{0} 不在扫描的文件夹内</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="186" />
        <source>to stop scanning a scanned folder, remove it from the folders to scan</source>
        <translation>要停止扫描某个扫描文件夹，请把它从要扫描的文件夹中移除</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="188" />
        <source>{0} is inside the scanned folder {1}: the copies will be found as duplicates by its next scan</source>
        <translation>{0} 位于扫描的文件夹 {1} 内：下次扫描会把这些副本当作重复文件找出</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="190" />
        <source>a folder outside keeps them out</source>
        <translation>选择外部的文件夹可避免这种情况</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="191" />
        <source>the custom command cannot be read: {0}</source>
        <translation>无法解析自定义命令：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="192" />
        <source>no custom command is set (Preferences)</source>
        <translation>尚未设置自定义命令（首选项）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="193" />
        <source>the custom command needs a second file (%b), and there is none</source>
        <translation>自定义命令需要第二个文件（%b），但没有</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="195" />
        <source>{0} is under a reference folder, and files there are never touched</source>
        <translation>{0} 位于参照文件夹中，那里的文件从不改动</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="197" />
        <source>Refused, nothing was done: this would leave files with no copy (or none similar enough).</source>
        <translation>已拒绝，未做任何改动：这会让一些文件没有副本（或没有足够相似的副本）。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="199" />
        <source>group {0}: all {1} files are marked</source>
        <translation>第 {0} 组：全部 {1} 个文件都已标记</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="200" />
        <source>unmark at least one to keep</source>
        <translation>请至少取消标记一个，以便保留</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="201" />
        <source>group {0}: {1} has no kept copy at least {2} similar in text</source>
        <translation>第 {0} 组：{1} 没有文本相似度至少 {2} 的保留副本</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="202" />
        <source>the most similar kept copy is {0} at {1}</source>
        <translation>最相似的保留副本是 {0}，相似度 {1}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="203" />
        <source>Unmark a file similar to each of these (the group's reference ★ is similar to every member).</source>
        <translation>请为其中每个文件取消标记一个与它相似的文件（本组的参照文件 ★ 与每个成员都相似）。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="205" />
        <source>{0} marked files are in no group, so no copy of them is known to stay (first: {1})</source>
        <translation>{0} 个已标记的文件不在任何组中，因此不知道它们有副本会保留（第一个：{1}）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="207" />
        <source>Refused, nothing was done: {0} marked files are under a reference folder, and files there are never touched (first: {1}). Unmark them or change the reference folders.</source>
        <translation>已拒绝，未做任何改动：{0} 个已标记的文件位于参照文件夹中，那里的文件从不改动（第一个：{1}）。请取消标记它们，或修改参照文件夹。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="211" />
        <source>Refused, nothing was done: {0} marked files are from a catalog, not on this computer, and files there are never touched (first: {1}).</source>
        <translation>已拒绝，未做任何改动：{0} 个已标记的文件来自清单，不在本机上，这样的文件从不改动（第一个：{1}）。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="214" />
        <source>group {0}: {1} keeps no copy on this computer, and a link needs one here (its copy is in the catalog {2})</source>
        <translation>第 {0} 组：{1} 在本机上没有保留的副本，而链接需要本机上的副本（它的副本在清单 {2} 中）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="216" />
        <source>group {0}: {1} keeps no copy on this computer, and no file of a catalog has its bytes (a near duplicate's differences are not on that drive)</source>
        <translation>第 {0} 组：{1} 在本机上没有保留的副本，清单中也没有字节与它相同的文件（近似重复文件的差异不在那个驱动器上）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="219" />
        <source>{0} marked files would keep no copy on this computer: only the catalog {1} says a byte-identical copy is on a drive that is not plugged in (first: {2}). Relying on a catalog for the last copy here must be chosen explicitly.</source>
        <translation>{0} 个已标记的文件在本机上将不留副本：只有清单 {1} 表明未接入的驱动器上有字节完全相同的副本（第一个：{2}）。凭清单处理本机上的最后一份必须明确选择。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="223" />
        <source>Refused, nothing was done: {0}</source>
        <translation>已拒绝，未做任何改动：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="224" />
        <source>{0} is in a catalog, not on this computer</source>
        <translation>{0} 在清单中，不在本机上</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="225" />
        <source>the file is in a catalog, on a drive that is not connected</source>
        <translation>该文件在清单中，位于未连接的驱动器上</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="226" />
        <source>cannot read the catalog {0}: {1}</source>
        <translation>无法读取清单 {0}：{1}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="227" />
        <source>{0} is not a simdup catalog (not an SQLite file)</source>
        <translation>{0} 不是 simdup 清单（不是 SQLite 文件）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="228" />
        <source>{0} is not a simdup catalog (other tables in it)</source>
        <translation>{0} 不是 simdup 清单（含有其他表）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="229" />
        <source>{0} is damaged or not a simdup catalog: {1}</source>
        <translation>{0} 已损坏或不是 simdup 清单：{1}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="230" />
        <source>{0} is damaged: {1}</source>
        <translation>{0} 已损坏：{1}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="231" />
        <source>{0} is a catalog of format version {1}</source>
        <translation>{0} 是格式版本 {1} 的清单</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="232" />
        <source>this simdup reads version {0}</source>
        <translation>此版本的 simdup 读取版本 {0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="233" />
        <source>{0} is not compared: {1}</source>
        <translation>未与 {0} 比较：{1}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="234" />
        <source>{0} is compared with already</source>
        <translation>已在与 {0} 比较</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="235" />
        <source>another catalog is called {0} already</source>
        <translation>已有另一个目录名为 {0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="236" />
        <source>compare again</source>
        <translation>请重新比较</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="237" />
        <source>group {0}: {1} is the last copy on this computer</source>
        <translation>第 {0} 组：{1} 是本机上的最后一份</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="238" />
        <source>on a catalog's word it may be moved or trashed, never be deleted permanently (its copy is in the catalog {0})</source>
        <translation>凭目录的说法，它只能被移动或移到回收站，绝不能被永久删除（它的副本在目录 {0} 中）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="240" />
        <source>it was made with other fingerprint settings ({0}), so its fingerprints cannot be compared</source>
        <translation>它是用其他指纹设置（{0}）制作的，因此无法比较其指纹</translation>
    </message>
    <message>
        <location filename="../../core/presenters/engine_text.py" line="242" />
        <source>scan with the features setting {0} to compare with it</source>
        <translation>用特征设置 {0} 扫描即可与它比较</translation>
    </message>
</context>
<context>
    <name>Report</name>
    <message>
        <location filename="../../core/presenters/actions.py" line="12" />
        <source>Move</source>
        <translation>移动</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="13" />
        <source>Trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="14" />
        <source>Delete</source>
        <translation>删除</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="15" />
        <source>Replace with hard links</source>
        <translation>替换为硬链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="16" />
        <source>Replace with symbolic links</source>
        <translation>替换为符号链接</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="17" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="18" />
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="19" />
        <source>Undo</source>
        <translation>撤销</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="20" />
        <source>Release held originals</source>
        <translation>释放保留的原件</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="21" />
        <source>done</source>
        <translation>完成</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="22" />
        <source>skipped</source>
        <translation>跳过</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="23" />
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="24" />
        <source>planned</source>
        <translation>计划</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="42" />
        <source>{0} done</source>
        <translation>{0} 个完成</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="43" />
        <source>{0} skipped</source>
        <translation>{0} 个跳过</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="44" />
        <source>{0} failed</source>
        <translation>{0} 个失败</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="45" />
        <source>{0} planned</source>
        <translation>{0} 个计划中</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="47" />
        <source>{0} put back</source>
        <translation>{0} 个已放回</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="49" />
        <source>{0} released</source>
        <translation>{0} 个已释放</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="50" />
        <source>{0} to release</source>
        <translation>{0} 个待释放</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="52" />
        <source>nothing to do</source>
        <translation>无事可做</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="54" />
        <source>dry run, nothing touched: {0}</source>
        <translation>演练，未改动任何文件：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="55" />
        <source>{0}: {1}</source>
        <translation>{0}：{1}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="58" />
        <source>; would free {0}</source>
        <translation>；将释放 {0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="59" />
        <source>; {0} freed</source>
        <translation>；已释放 {0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="61" />
        <source>; cancelled</source>
        <translation>；已取消</translation>
    </message>
    <message>
        <location filename="../../core/presenters/actions.py" line="63" />
        <source>; stopped: {0}</source>
        <translation>；已停止：{0}</translation>
    </message>
</context>
<context>
    <name>ReportDialog</name>
    <message>
        <location filename="../../app/dialogs.py" line="92" />
        <source>What happened: {0}</source>
        <translation>操作结果：{0}</translation>
    </message>
    <message>
        <location filename="../../app/dialogs.py" line="108" />
        <source>Journal: {0}</source>
        <translation>操作日志：{0}</translation>
    </message>
    <message>
        <location filename="../../app/dialogs.py" line="109" />
        <source>Nothing to do.</source>
        <translation>没有需要处理的内容。</translation>
    </message>
</context>
<context>
    <name>ResultsController</name>
    <message>
        <location filename="../../app/results_ui.py" line="178" />
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="179" />
        <source>Duplicates only (hide each group's reference)</source>
        <translation>只显示重复文件（隐藏每组的参照文件）</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="180" />
        <source>Size and date against the reference</source>
        <translation>与参照文件比较大小和日期</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="181" />
        <source>Ignore list…</source>
        <translation>忽略列表…</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="182" />
        <source>Not duplicates of the reference: ignore these pairs in every scan</source>
        <translation>不是参照文件的重复：以后每次扫描都忽略这些文件对</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="184" />
        <source>Ignore the selected files in every scan</source>
        <translation>以后每次扫描都忽略所选文件</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="185" />
        <source>Remove the selected files from the results (this session)</source>
        <translation>从结果中移除所选文件（仅本次）</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="187" />
        <source>Mark files whose name matches…</source>
        <translation>标记名称匹配的文件…</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="188" />
        <source>Toggle the marks of the selected files</source>
        <translation>切换所选文件的标记</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="189" />
        <location filename="../../app/results_ui.py" line="200" />
        <source>Open</source>
        <translation>打开</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="201" />
        <source>Reveal in folder</source>
        <translation>在文件夹中显示</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="245" />
        <source>Select one or more files first.</source>
        <translation>请先选择一个或多个文件。</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="250" />
        <source>Cannot change the ignore list</source>
        <translation>无法修改忽略列表</translation>
    </message>
    <message>
        <location filename="../../app/results_ui.py" line="279" />
        <source>Cannot mark by name</source>
        <translation>无法按名称标记</translation>
    </message>
</context>
<context>
    <name>ReviewController</name>
    <message>
        <location filename="../../app/review_ui.py" line="108" />
        <source>Make the selected file its group's reference</source>
        <translation>把选中的文件设为所在组的参照文件</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="109" />
        <source>Copy marked files to…</source>
        <translation>把标记的文件复制到…</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="110" />
        <source>Rename the selected file…</source>
        <translation>重命名选中的文件…</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="111" />
        <source>Open with the custom command</source>
        <translation>用自定义命令打开</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="112" />
        <source>Remove the marked files from the results (they stay on disk)</source>
        <translation>从结果中移除标记的文件（文件仍留在磁盘上）</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="114" />
        <source>Preferences…</source>
        <translation>首选项…</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="120" />
        <source>Copy to the clipboard</source>
        <translation>复制到剪贴板</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="121" />
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="122" />
        <source>Full path</source>
        <translation>完整路径</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="123" />
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="135" />
        <source>This folder: {0}</source>
        <translation>此文件夹：{0}</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="138" />
        <source>Mark every file in it (and below)</source>
        <translation>标记其中（含子文件夹）的所有文件</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="140" />
        <source>Unmark every file in it (and below)</source>
        <translation>取消标记其中（含子文件夹）的所有文件</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="142" />
        <source>Remove its files from the results</source>
        <translation>从结果中移除其中的文件</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="144" />
        <source>Exclude it from later scans</source>
        <translation>以后的扫描排除此文件夹</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="157" />
        <source>Select a file first.</source>
        <translation>请先选择一个文件。</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="169" />
        <source>Cannot make it the reference</source>
        <translation>无法设为参照文件</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="176" />
        <source>{0} is now the reference of its group; keep rules keep it.</source>
        <translation>{0} 现在是所在组的参照文件；保留规则会保留它。</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="180" />
        <source>and {0} more</source>
        <translation>以及另外 {0} 个</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="182" />
        <source>Files left the group</source>
        <translation>有文件离开了该组</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="183" />
        <source>{0} is now the reference of its group. Measured against it, these files are less similar than the threshold ({1} %) and left the group:

{2}</source>
        <translation>{0} 现在是所在组的参照文件。与它比较后，以下文件的相似度低于阈值（{1} %），已离开该组：

{2}</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="193" />
        <source>Copy marked files to</source>
        <translation>把标记的文件复制到</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="200" />
        <source>Refused</source>
        <translation>已拒绝</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="203" />
        <source>Nothing marked</source>
        <translation>没有标记的文件</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="204" />
        <source>Mark the files to copy first.</source>
        <translation>请先标记要复制的文件。</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="207" />
        <source>Copy the marked files ({0}: {1}) to {2}? Nothing is removed or written over; undo removes the copies.</source>
        <translation>把标记的文件（{0} 个：{1}）复制到 {2}？不会删除或覆盖任何文件；撤销会删除这些副本。</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="210" />
        <source>Confirm</source>
        <translation>确认</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="210" />
        <source>Copy</source>
        <translation>复制</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="224" />
        <source>Rename</source>
        <translation>重命名</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="225" />
        <source>New name for {0}:</source>
        <translation>{0} 的新名称：</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="232" />
        <source>Cannot rename</source>
        <translation>无法重命名</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="243" />
        <source>Renamed to {0}; Undo gives it its old name back.</source>
        <translation>已重命名为 {0}；撤销可恢复原名。</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="246" />
        <source>Not renamed</source>
        <translation>未重命名</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="257" />
        <source>No custom command</source>
        <translation>没有自定义命令</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="258" />
        <source>Set the command first, e.g. meld %a %b (File &gt; Preferences).</source>
        <translation>请先设置命令，例如 meld %a %b（文件 &gt; 首选项）。</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="266" />
        <source>Cannot run the custom command</source>
        <translation>无法运行自定义命令</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="268" />
        <source>Started: {0}</source>
        <translation>已启动：{0}</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="277" />
        <source>Nothing is marked.</source>
        <translation>没有标记任何文件。</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="281" />
        <source>Marked files removed from the results: {0}. They stay on disk; a new scan shows them again.</source>
        <translation>已从结果中移除标记的文件：{0} 个。文件仍留在磁盘上；重新扫描会再次显示它们。</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="290" />
        <source>The files of {0} are removed from the results; a new scan shows them again.</source>
        <translation>{0} 中的文件已从结果中移除；重新扫描会再次显示它们。</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="299" />
        <source>Cannot exclude the folder</source>
        <translation>无法排除该文件夹</translation>
    </message>
    <message>
        <location filename="../../app/review_ui.py" line="307" />
        <source>{0} is left out of later scans (Settings: Exclude) and its files out of these results.</source>
        <translation>以后的扫描将排除 {0}（设置：排除），其中的文件也已从当前结果中移除。</translation>
    </message>
</context>
<context>
    <name>ScanPanel</name>
    <message>
        <location filename="../../app/scan_panel.py" line="168" />
        <source>Folders to scan (drop folders here)</source>
        <translation>要扫描的文件夹（可把文件夹拖到这里）</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="169" />
        <source>Add folder…</source>
        <translation>添加文件夹…</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="170" />
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="171" />
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="172" />
        <source>Text similarity at least</source>
        <translation>文本相似度至少</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="172" />
        <source>Verify</source>
        <translation>核实方式</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="173" />
        <source>Fingerprint size (bits)</source>
        <translation>指纹位数</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="173" />
        <source>Candidate distance k</source>
        <translation>候选距离 k</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="174" />
        <source>Features</source>
        <translation>特征</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="174" />
        <source>Grouping</source>
        <translation>分组方式</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="175" />
        <source>Include patterns</source>
        <translation>包含模式</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="175" />
        <source>Exclude patterns</source>
        <translation>排除模式</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="176" />
        <source>Minimum size</source>
        <translation>最小大小</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="176" />
        <source>Maximum size</source>
        <translation>最大大小</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="177" />
        <source>Dask scheduler</source>
        <translation>Dask 调度器</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="180" />
        <source>e.g. *.txt *.md (empty: all text files)</source>
        <translation>如 *.txt *.md（留空：所有文本文件）</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="181" />
        <source>e.g. *.log build</source>
        <translation>如 *.log 备份</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="182" />
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="183" />
        <source>Larger files are skipped and listed under Problems.</source>
        <translation>更大的文件会被跳过，并列在“问题”中。</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="184" />
        <source>Keep documents made from one template apart</source>
        <translation>区分由同一模板生成的不同文档</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="186" />
        <source>Man pages of one generator, or one licence notice in many projects, share most of their text without being copies of each other: when ticked, a pair whose shared text is found in many other documents is not grouped. Copies are.</source>
        <translation>同一工具生成的手册页，或许多项目中的同一份许可声明，大部分文字相同，却并非彼此的副本：勾选后，如果两份文件共有的文字也出现在许多其他文档中，就不把它们分为一组。真正的副本仍会分组。</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="189" />
        <source>Follow symbolic links</source>
        <translation>跟随符号链接</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="191" />
        <source>Scan the files and folders that symbolic links point to (each file once). Unticked, links are listed under Problems.</source>
        <translation>扫描符号链接指向的文件和文件夹（每个文件只扫描一次）。不勾选时，链接列在“问题”中。</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="193" />
        <source>Read documents (PDF, Word, OpenDocument, EPUB, RTF)</source>
        <translation>读取文档（PDF、Word、OpenDocument、EPUB、RTF）</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="195" />
        <source>Compare the text of .pdf, .docx, .odt, .epub and .rtf files with text files. Unticked, these files are left out of the scan.</source>
        <translation>将 .pdf、.docx、.odt、.epub 和 .rtf 文件中的文字与文本文件比较。不勾选时，扫描会略过这些文件。</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="197" />
        <source>empty: this machine</source>
        <translation>留空：本机</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="199" />
        <source>Fingerprint on a Dask cluster: local:N starts N workers here, tcp://host:8786 uses a running scheduler (every worker must see the folders at the same path). Empty: this machine's cores. Needs pip install "simdup[dask]".</source>
        <translation>在 Dask 集群上计算指纹：local:N 在本机启动 N 个工作进程，tcp://host:8786 使用正在运行的调度器（每个工作进程都必须在相同路径下看到这些文件夹）。留空：使用本机的处理器核心。需要 pip install "simdup[dask]"。</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="202" />
        <source>shingles: words and word pairs, TF-IDF weighted (best measured accuracy); tokens: words only; topk: the seeds' top-K keywords</source>
        <translation>词语与词对：词语和相邻词对，TF-IDF 加权（实测准确率最高）；词语：只用词语；关键词：原文的前 K 个关键词</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="205" />
        <source>With SimHash only: linked joins files by any chain of near pairs; strict keeps every pair in a group within k</source>
        <translation>仅 SimHash 时：链式把由近邻对连成链的文件归为一组；严格要求组内每对都在 k 以内</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="211" />
        <source>text similarity (recommended)</source>
        <translation>文本相似度（推荐）</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="212" />
        <source>SimHash only (for comparison)</source>
        <translation>仅 SimHash（用于比较）</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="214" />
        <source>The fingerprint size and distance k only propose candidate pairs. With text similarity, each candidate is checked: a file joins a group when its text (5-gram Jaccard of the normalised text) is at least the threshold similar to the group's reference (★). SimHash only groups by fingerprint distance alone.</source>
        <translation>指纹位数和距离 k 只提出候选文件对。选择文本相似度时，每个候选都会核实：文件的文本（规范化文本的5 字片段 Jaccard）与本组参照文件（★）的相似度达到阈值时才加入该组。仅 SimHash 只按指纹距离分组。</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="219" />
        <source>Scan</source>
        <translation>扫描</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="220" />
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="298" />
        <source>The maximum size is below the minimum size: raise "Maximum size" or lower "Minimum size" in Settings.</source>
        <translation>最大大小低于最小大小：请在“设置”中调高“最大大小”或调低“最小大小”。</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="305" />
        <source>"Dask scheduler" in Settings must be empty (this machine), local:N (N workers here) or an address such as tcp://host:8786, not "{0}".</source>
        <translation>“设置”中的“Dask 调度器”必须留空（本机）、为 local:N（本机 N 个工作进程）或 tcp://host:8786 这样的地址，而不是“{0}”。</translation>
    </message>
    <message>
        <location filename="../../app/scan_panel.py" line="366" />
        <source>Add a folder to scan</source>
        <translation>添加要扫描的文件夹</translation>
    </message>
</context>
<context>
    <name>SessionKeeper</name>
    <message>
        <location filename="../../app/kept_ui.py" line="80" />
        <source>Restoring the last session…</source>
        <translation>正在恢复上次的会话…</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="93" />
        <source>The last session could not be restored ({0}): {1}</source>
        <translation>无法恢复上次的会话（{0}）：{1}</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="131" />
        <source>Restored the last session: {0} in groups; checking them against the disk…</source>
        <translation>已恢复上次的会话：组中有 {0}；正在与磁盘核对…</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="148" />
        <source>The check of the restored session was cancelled: files changed since the last session may still be shown. Scan again to check them.</source>
        <translation>已取消对恢复的会话的核对：上次会话之后改动过的文件可能仍在显示。请重新扫描以核对。</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="156" />
        <source>Restored the last session and checked it against the disk: nothing changed since.</source>
        <translation>已恢复上次的会话并与磁盘核对：此后没有任何变化。</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="159" />
        <source>Restored the last session and checked it against the disk: {0} gone and {1} changed since: the groups now show the files as they are, and those files lost their marks.</source>
        <translation>已恢复上次的会话并与磁盘核对：此后有 {0}已不存在、{1}被修改；分组现在按文件的当前状态显示，这些文件的标记已清除。</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="179" />
        <source>Quit simdup?</source>
        <translation>退出 simdup？</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="180" />
        <source>Marks on {0} were not acted on or saved. Save this session with its marks, to see it again at the next start?</source>
        <translation>{0}上的标记尚未执行操作，也未保存。要保存本次会话及其标记，以便下次启动时再看到吗？</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="182" />
        <source>Save and quit</source>
        <translation>保存并退出</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="182" />
        <source>Quit without saving</source>
        <translation>不保存并退出</translation>
    </message>
    <message>
        <location filename="../../app/kept_ui.py" line="206" />
        <source>Cannot save the session</source>
        <translation>无法保存会话</translation>
    </message>
</context>
<context>
    <name>TextDiffView</name>
    <message>
        <location filename="../../app/textdiffview.py" line="39" />
        <source>Load more of both files</source>
        <translation>加载两个文件的更多内容</translation>
    </message>
    <message>
        <location filename="../../app/textdiffview.py" line="41" />
        <source>Select a file to compare it with the reference.</source>
        <translation>选择一个文件，与参照文件比较。</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="111" />
        <source>cannot read: {0}</source>
        <translation>无法读取：{0}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="112" />
        <source>{0}, line endings {1}, {2}</source>
        <translation>{0}，换行符 {1}，{2}</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="114" />
        <source> (first part shown)</source>
        <translation>（只显示开头部分）</translation>
    </message>
    <message>
        <location filename="../../core/presenters/details.py" line="123" />
        <source>it is in catalog {0}, on a drive that is not connected</source>
        <translation>它在清单 {0} 中，位于未连接的驱动器上</translation>
    </message>
</context>
<context>
    <name>ThemeWatcher</name>
    <message>
        <location filename="../../app/theme.py" line="141" />
        <source>Theme</source>
        <translation>主题</translation>
    </message>
    <message>
        <location filename="../../app/theme.py" line="142" />
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location filename="../../app/theme.py" line="142" />
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location filename="../../app/theme.py" line="143" />
        <source>Dark</source>
        <translation>深色</translation>
    </message>
</context>
</TS>