" Helpers shared by the ALE linters in ale_linters/ and the vim-lsp registration in vim-lsp.vim.
"   g:clarvis_lsp_executable  the server command (default 'clarvis-lsp', from PATH)
"   g:clarvis_lsp_settings    the `clarvis` settings (SPEC §7), e.g. {'preset': 'clarvis', 'includeUser': v:false}

let s:root_markers = ['.clarvis-lsp.toml', '.clarvis', '.agents', '.git']

" The files clarvis-lsp checks (SPEC §3), from editors/file-patterns.json: generated from the server's own table
" of file kinds, so a place Clarvis adds reaches Vim unchanged. Each is a name (`*.md`: any name with that suffix)
" in the directories given (outermost first, `*`: any one name).
let s:patterns = json_decode(join(readfile(expand('<sfile>:p:h:h:h') . '/file-patterns.json'), "\n")).patterns

function! s:Matches(pattern, parts) abort
    let l:name = a:parts[-1]

    if a:pattern.name[0] ==# '*'
        let l:suffix = a:pattern.name[1:]

        if len(l:name) <= len(l:suffix) || strpart(l:name, len(l:name) - len(l:suffix)) !=# l:suffix
            return 0
        endif
    elseif l:name !=# a:pattern.name
        return 0
    endif

    let l:directories = a:pattern.directories

    if len(a:parts) <= len(l:directories)
        return 0
    endif

    for l:i in range(len(l:directories))
        let l:wanted = l:directories[l:i]

        if l:wanted !=# '*' && l:wanted !=# a:parts[len(a:parts) - 1 - len(l:directories) + l:i]
            return 0
        endif
    endfor

    return 1
endfunction

" Whether clarvis-lsp checks this file; other markdown and json files are left alone. For a plugin.json or a
" hooks/hooks.json the server decides, and answers nothing for one that is not Clarvis's.
function! clarvis_lsp#IsClarvisFile(path) abort
    let l:parts = split(substitute(a:path, '\\', '/', 'g'), '/')

    if empty(l:parts)
        return 0
    endif

    for l:pattern in s:patterns
        if s:Matches(l:pattern, l:parts)
            return 1
        endif
    endfor

    return 0
endfunction

" The server command for a Clarvis file, '' for any other file (ALE then skips the linter silently).
function! clarvis_lsp#Executable(buffer) abort
    if !clarvis_lsp#IsClarvisFile(expand('#' . a:buffer . ':p'))
        return ''
    endif

    return get(g:, 'clarvis_lsp_executable', 'clarvis-lsp')
endfunction

" The nearest directory above the file holding a workspace marker, else the file's own directory.
function! clarvis_lsp#ProjectRoot(buffer) abort
    let l:dir = expand('#' . a:buffer . ':p:h')
    let l:start = l:dir

    while 1
        for l:marker in s:root_markers
            if isdirectory(l:dir . '/' . l:marker) || filereadable(l:dir . '/' . l:marker)
                return l:dir
            endif
        endfor

        let l:parent = fnamemodify(l:dir, ':h')

        if l:parent is# l:dir
            return l:start
        endif

        let l:dir = l:parent
    endwhile
endfunction

" The settings as the server reads them: {'clarvis': {...}}.
function! clarvis_lsp#Settings(...) abort
    return {'clarvis': get(g:, 'clarvis_lsp_settings', {})}
endfunction

" The ALE linter definition, for the filetypes Vim gives Clarvis files.
function! clarvis_lsp#DefineAleLinter(filetype) abort
    call ale#linter#Define(a:filetype, {
    \   'name': 'clarvis_lsp',
    \   'lsp': 'stdio',
    \   'executable': function('clarvis_lsp#Executable'),
    \   'command': '%e',
    \   'project_root': function('clarvis_lsp#ProjectRoot'),
    \   'initialization_options': function('clarvis_lsp#Settings'),
    \   'lsp_config': function('clarvis_lsp#Settings'),
    \})
endfunction
