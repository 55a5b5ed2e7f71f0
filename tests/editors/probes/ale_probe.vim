" Vim 9 + ALE (Debian vim-ale) set up by ~/.vimrc alone, holding editors/vim/README.md's lines (the test writes
" them there; nothing here configures Vim or ALE): open the fixture's SKILL.md, wait for ALE to show the server's
" diagnostics, check that a README is never sent to the server, and write what it saw to $CLARVIS_OUT as JSON.
" Run as: vim -i NONE -n --not-a-term -c 'source ale_probe.vim' </dev/null
" The one setting of the probe's own is the README's optional `g:clarvis_lsp_settings`, read when the server
" starts (at the first file below): includeUser off, so skill/unknown-agent shows that settings reach the server.
let g:clarvis_lsp_settings = {'includeUser': v:false}

let s:timeout = str2float($CLARVIS_TIMEOUT_MS ==# '' ? '20000' : $CLARVIS_TIMEOUT_MS) / 1000.0
let s:result = {'errors': [], 'ok': v:false}

" Whether the buffer has diagnostics and every code in `expected` (comma-separated) is among them.
function! s:HasExpected(buffer, expected) abort
    let l:codes = map(copy(ale#engine#GetLoclist(a:buffer)), {_, d -> get(d, 'code', '')})

    return !empty(l:codes) && empty(filter(split(a:expected, ','), {_, c -> index(l:codes, c) < 0}))
endfunction

function! s:WaitForDiagnostics(buffer, expected) abort
    let l:start = reltime()

    while !s:HasExpected(a:buffer, a:expected) && reltimefloat(reltime(l:start)) < s:timeout
        sleep 20m
    endwhile

    return s:HasExpected(a:buffer, a:expected)
endfunction

function! s:Diagnostics(buffer) abort
    return map(copy(ale#engine#GetLoclist(a:buffer)),
    \   {_, d -> {'line': d.lnum, 'col': d.col, 'code': get(d, 'code', ''), 'message': d.text}})
endfunction

function! s:Probe() abort
    execute 'edit' fnameescape($CLARVIS_FILE)
    let l:buffer = bufnr('%')
    let s:result.filetype = &filetype
    let s:result.ok = s:WaitForDiagnostics(l:buffer, $CLARVIS_EXPECT)
    let s:result.diagnostics_s = reltimefloat(reltime()) - str2float($CLARVIS_T0)
    let s:result.diagnostics = s:Diagnostics(l:buffer)

    execute 'edit' fnameescape($CLARVIS_SETTINGS_FILE)
    call s:WaitForDiagnostics(bufnr('%'), $CLARVIS_SETTINGS_EXPECT)
    let s:result.settings_diagnostics = s:Diagnostics(bufnr('%'))

    execute 'edit' fnameescape($CLARVIS_PLAIN_FILE)
    let l:plain = bufnr('%')
    let l:connections = values(ale#lsp#GetConnections())
    let s:result.plain_clients = len(filter(copy(l:connections), {_, c -> has_key(c.open_documents, l:plain)}))
    let s:result.clients = len(l:connections)
endfunction

try
    call s:Probe()
catch
    call add(s:result.errors, v:exception . ' at ' . v:throwpoint)
endtry
call writefile([json_encode(s:result)], $CLARVIS_OUT)
execute s:result.ok && empty(s:result.errors) ? 'qa!' : 'cquit 1'
