" Helpers shared by the ALE linters in ale_linters/ and the vim-lsp registration in vim-lsp.vim.
"   g:clarvis_lsp_executable  the server command (default 'clarvis-lsp', from PATH)
"   g:clarvis_lsp_settings    the `clarvis` settings (SPEC §7), e.g. {'preset': 'clarvis', 'includeUser': v:false}

let s:root_markers = ['.clarvis-lsp.toml', '.clarvis', '.agents', '.git']

" Whether clarvis-lsp checks this file (SPEC §3); other markdown and json files are left alone.
function! clarvis_lsp#IsClarvisFile(path) abort
    let l:path = substitute(a:path, '\\', '/', 'g')
    let l:name = fnamemodify(l:path, ':t')

    return index(['SKILL.md', 'plugin.json', 'marketplace.json'], l:name) >= 0
    \   || l:path =~# '/\.clarvis/settings\.json$'
    \   || l:path =~# '/hooks/hooks\.json$'
    \   || l:path =~# '/\.clarvis/agents/[^/]\+\.md$'
    \   || l:path =~# '/plugins/[^/]\+/agents/[^/]\+\.md$'
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
