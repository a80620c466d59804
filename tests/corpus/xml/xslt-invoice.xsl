<?xml version="1.0" encoding="UTF-8"?>
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="html" indent="yes" encoding="UTF-8"/>
  <xsl:param name="currency" select="'EUR'"/>

  <xsl:template match="/invoice">
    <html>
      <body>
        <h1>Invoice <xsl:value-of select="@number"/></h1>
        <table>
          <xsl:for-each select="line">
            <xsl:sort select="@sku"/>
            <tr>
              <td><xsl:value-of select="description"/></td>
              <td><xsl:value-of select="format-number(amount, '#,##0.00')"/>&#160;<xsl:value-of select="$currency"/></td>
            </tr>
          </xsl:for-each>
        </table>
        <xsl:if test="sum(line/amount) &gt; 1000">
          <p class="note">Payment in two instalments is possible.</p>
        </xsl:if>
        <xsl:choose>
          <xsl:when test="@paid = 'true'"><p>Paid &#8212; thank you!</p></xsl:when>
          <xsl:otherwise><p>Due within 30 days.</p></xsl:otherwise>
        </xsl:choose>
      </body>
    </html>
  </xsl:template>
</xsl:stylesheet>
