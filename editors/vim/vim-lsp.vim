" clarvis-lsp for vim-lsp (prabirshrestha/vim-lsp). Not tested in CI: vim-lsp is not packaged in Debian.
" In your vimrc, with editors/vim on the runtimepath for autoload/clarvis_lsp.vim:
"   set runtimepath+=/path/to/clarvis-lsp/editors/vim
"   source /path/to/clarvis-lsp/editors/vim/vim-lsp.vim
"   let g:clarvis_lsp_settings = {'includeUser': v:true}   " optional, the `clarvis` settings

function! s:RegisterClarvisLsp() abort
    call lsp#register_server({
    \   'name': 'clarvis-lsp',
    \   'cmd': {_ -> clarvis_lsp#IsClarvisFile(lsp#utils#get_buffer_path())
    \       ? [get(g:, 'clarvis_lsp_executable', 'clarvis-lsp')] : []},
    \   'root_uri': {_ -> lsp#utils#path_to_uri(clarvis_lsp#ProjectRoot(bufnr('%')))},
    \   'allowlist': ['markdown', 'json'],
    \   'initialization_options': clarvis_lsp#Settings(),
    \   'workspace_config': clarvis_lsp#Settings(),
    \})
endfunction

augroup clarvis_lsp_vim_lsp
    autocmd!
    autocmd User lsp_setup call s:RegisterClarvisLsp()
augroup END
