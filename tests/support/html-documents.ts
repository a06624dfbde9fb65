/** HTML shaped like real uploaded documents: Debian's DocBook manual pages, LaTeX2HTML manuals, fragments. */

const navLinks = (names: string[]) => names.map((n) => `<a href="${n.toLowerCase()}.html">${n}</a>`).join(' | ');

/** DocBook XSL's XHTML: an XML declaration, a navheader table of links, then the page, then a navfooter. */
export const docbookXhtml = (sentence: string) => `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
<title>frobnicate</title><meta name="generator" content="DocBook XSL Stylesheets Vsnapshot" /></head>
<body><div class="navheader"><table width="100%" summary="Navigation header"><tr><th colspan="3" align="center">frobnicate</th></tr>
<tr><td width="20%" align="left"><a accesskey="p" href="prev.html">Prev</a> </td><th width="60%" align="center"> </th>
<td width="20%" align="right"> <a accesskey="n" href="next.html">Next</a></td></tr></table><hr /></div>
<div class="refentry"><div class="refnamediv"><h2>Name</h2><p>frobnicate — adjust the widgets</p></div>
<div class="refsynopsisdiv"><h2>Synopsis</h2><div class="cmdsynopsis"><p><code class="command">frobnicate</code> [--level <em class="replaceable"><code>n</code></em>]</p></div></div>
<div class="refsect1"><h2>Options</h2><div class="variablelist"><dl class="variablelist">
<dt><span class="term"><code class="option">--level</code></span></dt><dd><p>${sentence}</p></dd></dl></div></div></div>
<div class="navfooter"><hr /><table width="100%" summary="Navigation footer"><tr><td align="left"><a href="prev.html">Prev</a></td>
<td align="center"><a href="index.html">Home</a></td><td align="right"><a href="next.html">Next</a></td></tr></table></div></body></html>`;

/** LaTeX2HTML: loose navigation panels between marker comments, child links, content, and footnotes at the end. */
export const latex2html = (sentences: {
  body: string;
  footnote: string;
  cell: string;
}) => `<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN">
<!--Converted with LaTeX2HTML 2008 (1.71)-->
<HTML><HEAD><TITLE>Fit</TITLE><META NAME="description" CONTENT="Fit"></HEAD>
<BODY >
<!--Navigation Panel-->
<A NAME="tex2html1" HREF="Commands.html"><IMG ALT="next" SRC="next.png"></A>
<A NAME="tex2html2" HREF="Commands.html"><IMG ALT="up" SRC="up.png"></A>
<BR>
<B> Next:</B> <A NAME="tex2html3" HREF="Adjustable_parameters.html">Adjustable parameters</A>
<B> Up:</B> <A NAME="tex2html4" HREF="Commands.html">Commands</A>
<B> Previous:</B> <A NAME="tex2html5" HREF="Exit.html">Exit</A> &nbsp; <B> <A HREF="Contents.html">Contents</A></B>
<BR><BR>
<!--End of Navigation Panel-->
<!--Table of Child-Links-->
<A NAME="CHILD_LINKS"><STRONG>Subsections</STRONG></A>
<UL>
<LI><A HREF="Adjustable_parameters.html">Adjustable parameters</A>
<LI><A HREF="Beginner_s_guide.html">Beginner's guide</A>
<LI><A HREF="Error_estimates.html">Error estimates</A>
</UL>
<!--End of Table of Child-Links-->
<HR>
<H2><A NAME="SECTION002340000000000000000">Fit</A></H2>
<A NAME="17009"></A>
<P>
${sentences.body}<A NAME="tex2html59" HREF="#foot17085"><SUP>1</SUP></A>
<P>
<TABLE><TR><TD>Keyword</TD><TD>Meaning</TD></TR><TR><TD>via</TD><TD>${sentences.cell}</TD></TR></TABLE>
<BR><HR><H4>Footnotes</H4>
<DL>
<DT><A NAME="foot17085">...</A><A HREF="Fit.html#tex2html59"><SUP>1</SUP></A></DT>
<DD>${sentences.footnote}</DD>
</DL>
<HR>
<!--Navigation Panel-->
<A NAME="tex2html6" HREF="Commands.html"><IMG ALT="next" SRC="next.png"></A>
<B> Next:</B> <A HREF="Adjustable_parameters.html">Adjustable parameters</A>
<B> Up:</B> <A HREF="Commands.html">Commands</A>
<!--End of Navigation Panel-->
<ADDRESS>Ethan Merritt 2024-01-01</ADDRESS>
</BODY>
</HTML>`;

/** A page of a site: header and nav landmarks and a footer around an article with its own header. */
export const sitePage = (sentence: string) => `<!doctype html><html><head><title>Guide</title></head><body>
<header><a href="/">Home</a> ${navLinks(['Products', 'Support', 'Blog'])}</header>
<nav><ul><li><a href="/a">Getting started</a></li><li><a href="/b">Configuration</a></li></ul></nav>
<main><article><header><h1>Heating the greenhouse</h1></header><p>${sentence}</p></article></main>
<footer>Copyright Example Ltd. ${navLinks(['Privacy', 'Terms'])}</footer></body></html>`;
