" Asks editors/vim's clarvis_lsp#IsClarvisFile about every path in $CLARVIS_SAMPLES (one a line) and writes
" {path: 0 or 1} to $CLARVIS_OUT as JSON. Run as: vim -u NONE -N -i NONE -n -es -S patterns_probe.vim
execute 'set runtimepath+=' . fnameescape($CLARVIS_EDITORS . '/vim')
let s:answers = {}
for s:path in readfile($CLARVIS_SAMPLES)
    let s:answers[s:path] = clarvis_lsp#IsClarvisFile(s:path) ? 1 : 0
endfor
call writefile([json_encode(s:answers)], $CLARVIS_OUT)
qall!
